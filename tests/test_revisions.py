"""A game's history: ``getbit import FILE --replaces ID``, ``getbit retract``, what
statistics, ``games`` and ``show`` make of them, the revision hint of an import,
the errors that change nothing, and the stats count of broken set-ups."""

from __future__ import annotations

import json
import os
import shlex
import sqlite3
import subprocess
import sys
from pathlib import Path

import attrs
import pytest
from test_reports_fold import _games
from typer.testing import CliRunner

from cli import app
from getbit_events.errors import InputError, StoreError
from getbit_events.simulate import simulate_games
from getbit_events.validate import validate_game
from importers.gbn import read_gbn, write_gbn
from reports.sources import row_tuples
from reports.stats import report_from_tuples
from reports.totals import store_report
from store import GameStore, check_store, schema

#: what these test is plain Python in both builds (none of setup.py's COMPILED is their
#: subject): the compiled build's pass of .ci/run leaves them to the plain pass

ROOT = Path(__file__).resolve().parent.parent
BAD_SETUP = ROOT / "fixtures" / "invalid" / "bad-setup.gbn"


def _record(seed: int = 1, annotator: str = "Bobb", date: str = "2026-11-20") -> str:
    """A finished club game, tagged; ``annotator`` changes its content, not its identity."""
    game = write_gbn(simulate_games(1, "standard", 4, seed, "random"))
    tags = f'[Event "Friday club"]\n[Date "{date}"]\n[Annotator "{annotator}"]\n'
    return tags + game


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("GETBIT_DB", raising=False)
    return tmp_path / "games.db"


def _run(runner: CliRunner, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output + result.stderr
    return result.exit_code, result.stdout, result.stderr


def _file(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _import(runner: CliRunner, db: Path, path: Path) -> str:
    code, out, _ = _run(runner, "import", str(path), "--db", str(db), "--json")
    assert code == 0, out
    with GameStore(db) as store:
        return [g.id for g in store.games(everything=True)][-1]


def _stats(runner: CliRunner, db: Path, *more: str) -> dict[str, object]:
    code, out, err = _run(runner, "stats", "--db", str(db), "--json", *more)
    assert code == 0, err
    data: dict[str, object] = json.loads(out)
    return data


def _snapshot(db: Path) -> list[object]:
    with GameStore(db) as store:
        return [
            store.table_rows(t)
            for t in ("games", "events", "violations", "history", "game_swimmers",
                      "player_totals", "game_totals")
        ]


@pytest.fixture
def club(tmp_path: Path, db: Path, runner: CliRunner) -> tuple[str, Path]:
    """A store holding one club game (with a typo); the corrected record beside it."""
    old = _import(runner, db, _file(tmp_path, "club.gbn", _record()))
    return old, _file(tmp_path, "fixed.gbn", _record(annotator="Bob"))


# -- revisions -------------------------------------------------------------------


def test_a_corrected_record_replaces_the_game_it_names(
    runner: CliRunner, db: Path, club: tuple[str, Path]
) -> None:
    old, fixed = club
    before = _stats(runner, db)
    code, out, _ = _run(runner, "import", str(fixed), "--db", str(db),
                        "--replaces", old[:6], "--reason", "Bobb is Bob")
    assert code == 0
    assert f"supersedes {old} (Bobb is Bob)" in out
    after = _stats(runner, db)
    assert before["games_included"] == after["games_included"] == 1  # one game played
    assert after["games_excluded"]["superseded"] == 1  # type: ignore[index]
    with GameStore(db) as store:
        new = [g.id for g in store.games()]
        assert len(new) == 1
        assert new[0] != old
        assert store.dropped() == {old: "superseded"}
        (entry,) = store.history(old)
        assert (entry.kind, entry.game, entry.target, entry.reason) == (
            "supersedes", new[0], old, "Bobb is Bob")
        assert store.count() == 2  # nothing deleted: the old game and its events stay
        assert store.events(old)


def test_without_replaces_a_corrected_record_is_a_second_game(
    runner: CliRunner, db: Path, club: tuple[str, Path]
) -> None:
    _, fixed = club
    _import(runner, db, fixed)
    assert _stats(runner, db)["games_included"] == 2  # what --replaces is for


def test_games_lists_the_latest_revision_and_all_of_them_with_all(
    runner: CliRunner, db: Path, club: tuple[str, Path]
) -> None:
    old, fixed = club
    _run(runner, "import", str(fixed), "--db", str(db), "--replaces", old)
    code, out, err = _run(runner, "games", "--db", str(db))
    assert code == 0
    assert old not in out
    assert "1 game (1 superseded not listed: see --all)" in err  # piped: the count apart
    code, out, _ = _run(runner, "games", "--db", str(db), "--all", "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["id"] == old, r["history"]) for r in rows] == [(True, "superseded"), (False, None)]


def test_show_gives_the_history_both_ways(
    runner: CliRunner, db: Path, club: tuple[str, Path]
) -> None:
    old, fixed = club
    _run(runner, "import", str(fixed), "--db", str(db), "--replaces", old, "--reason", "typo")
    with GameStore(db) as store:
        (new,) = [g.id for g in store.games()]
    _, out, _ = _run(runner, "show", old, "--db", str(db))
    assert f"superseded by {new} on " in out
    assert "(typo): not counted" in out
    _, out, _ = _run(runner, "show", new, "--db", str(db))
    assert f"supersedes {old} (since " in out
    _, out, _ = _run(runner, "show", old, "--db", str(db), "--json")
    assert [e["kind"] for e in json.loads(out)["history"]] == ["supersedes"]


def test_replacing_with_a_record_already_stored_only_appends_the_fact(
    runner: CliRunner, db: Path, club: tuple[str, Path]
) -> None:
    old, fixed = club
    new = _import(runner, db, fixed)
    code, out, _ = _run(runner, "import", str(fixed), "--db", str(db), "--replaces", old)
    assert code == 0
    assert f"game {new} already stored; it supersedes {old}" in out
    code, out, _ = _run(runner, "import", str(fixed), "--db", str(db), "--replaces", old)
    assert code == 0
    assert "nothing to do" in out
    with GameStore(db) as store:
        assert len(store.table_rows("history")) == 1


def test_a_retracted_game_is_left_out_and_kept(
    runner: CliRunner, db: Path, club: tuple[str, Path]
) -> None:
    old, _ = club
    code, out, _ = _run(runner, "retract", old[:8], "--db", str(db), "--reason", "a test game")
    assert code == 0
    assert f"retracted {old}" in out
    assert "(a test game)" in out
    data = _stats(runner, db)
    assert data["games_included"] == 0
    assert data["games_excluded"]["retracted"] == 1  # type: ignore[index]
    _, _, err = _run(runner, "games", "--db", str(db))
    assert "0 games (1 retracted not listed: see --all)" in err
    _, out, _ = _run(runner, "show", old, "--db", str(db))
    assert "retracted on " in out
    assert "(a test game): not counted" in out
    with GameStore(db) as store:
        assert store.count() == 1
        assert store.events(old)


@pytest.mark.parametrize("reason", ["", "  "])
def test_a_retraction_says_why(
    runner: CliRunner, db: Path, club: tuple[str, Path], reason: str
) -> None:
    old, _ = club
    code, out, err = _run(runner, "retract", old, "--db", str(db), "--reason", reason)
    assert (code, out) == (2, "")
    assert err == (
        "getbit retract: --reason: say why the game is taken back (it is kept in its history)\n"
    )
    with GameStore(db) as store:
        assert not store.table_rows("history")


def test_the_read_models_are_what_a_rebuild_makes_and_check_passes(
    tmp_path: Path, db: Path, runner: CliRunner
) -> None:
    games = _games(40)
    with GameStore(db) as store:
        ids = [store.add(validate_game(g)).game_id
               for g in read_gbn(write_gbn(games), "sim.gbn")]
    fixed = _import(runner, db, _file(tmp_path, "fixed.gbn", _record(seed=9)))
    with GameStore(db) as store:
        store.supersede(fixed, ids[3], "a corrected record")
        store.retract(ids[5], "entered twice")
        store.retract(fixed, "not a club game after all")
        live = store.totals()
        left_out = store.left_out()
        broken = left_out.pop("broken")
        rows_report = report_from_tuples(
            row_tuples(store), None, None, False, broken, left_out
        )
        assert store_report(store) == rows_report  # the totals honour the history
        assert rows_report.games_excluded["superseded"] == 1
        assert rows_report.games_excluded["retracted"] == 2
        before = _snapshot(db)
        store.rebuild()
        assert attrs.asdict(store.totals(), recurse=False) == attrs.asdict(live, recurse=False)
    assert _snapshot(db) == before
    assert check_store(db).ok


# -- what is refused ---------------------------------------------------------------


@pytest.fixture
def refused(
    tmp_path: Path, db: Path, runner: CliRunner, club: tuple[str, Path]
) -> dict[str, object]:
    """A store with a revision (old -> new), a retracted game, and records to misuse."""
    old, fixed = club
    _run(runner, "import", str(fixed), "--db", str(db), "--replaces", old)
    gone = _import(runner, db, _file(tmp_path, "gone.gbn", _record(seed=2)))
    _run(runner, "retract", gone, "--db", str(db), "--reason", "a mistake")
    with GameStore(db) as store:
        (new,) = [g.id for g in store.games()]
    two = _file(tmp_path, "two.gbn", _record(seed=3) + "\n" + _record(seed=4))
    other = _file(tmp_path, "other.gbn", _record(seed=5))
    return {"old": old, "new": new, "gone": gone, "fixed": fixed, "two": two,
            "other": other, "club": tmp_path / "club.gbn"}


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("import", "{other}", "--replaces", "ffffffff"), "no game 'ffffffff'"),
        (("import", "{other}", "--replaces", ""), "a game id is needed"),
        (("import", "{other}", "--replaces", "{gone}"), "was retracted on "),
        (("import", "{fixed}", "--replaces", "{new}"), "is game {new} itself"),
        (("import", "{club}", "--replaces", "{new}"), "a cycle of replacements"),
        (("import", "{other}", "--replaces", "{old}"), "already superseded by {new}"),
        (("import", "{two}", "--replaces", "{new}"), "holds several games"),
        (("import", "{club}", "--replaces", "{gone}"), "was retracted on "),
        (("retract", "{gone}", "--reason", "again"), "was already retracted on "),
        (("retract", "{old}", "--reason", "x"), "latest revision: getbit retract {new}"),
        (("retract", "ffffffff", "--reason", "x"), "no game 'ffffffff'"),
        (("import", "{other}", "--reason", "why"), "--reason goes with --replaces"),
    ],
    ids=["unknown", "empty-id", "retracted", "itself", "cycle", "superseded", "several",
         "old-retracted", "retract-twice", "retract-superseded", "retract-unknown",
         "reason-alone"],
)
def test_a_refused_revision_says_why_and_changes_nothing(
    runner: CliRunner, db: Path, refused: dict[str, object], args: tuple[str, ...], said: str
) -> None:
    before = _snapshot(db)
    code, _, err = _run(runner, *(a.format(**refused) for a in args), "--db", str(db))
    assert code == 2
    assert said.format(**refused) in " ".join(err.split())
    assert _snapshot(db) == before


def test_an_ambiguous_id_is_refused(tmp_path: Path, db: Path) -> None:
    with GameStore(db) as store:
        ids = [store.add(validate_game(g)).game_id
               for g in read_gbn(write_gbn(_games(60)), "sim.gbn")]
        prefix = next(a[0] for a in ids if sum(b[0] == a[0] for b in ids) > 1)
        with pytest.raises(InputError, match="could be any of"):
            store.retract(prefix, "which?")
        assert store.table_rows("history") == []


def test_a_record_with_syntax_errors_replaces_nothing(
    runner: CliRunner, db: Path, club: tuple[str, Path], tmp_path: Path
) -> None:
    old, _ = club
    bad = _file(tmp_path, "bad.gbn", '[Line "Ann, Bob, Cid, Dee"]\n1. Ann one, Bob 2\n')
    before = _snapshot(db)
    code, _, err = _run(runner, "import", str(bad), "--db", str(db), "--replaces", old)
    assert code == 2
    assert "syntax errors: nothing is stored" in err
    assert _snapshot(db) == before


def test_of_two_revisions_of_one_game_at_once_one_wins(
    db: Path, club: tuple[str, Path], tmp_path: Path
) -> None:
    old, _ = club
    files = [_file(tmp_path, f"fix{i}.gbn", _record(annotator=name))
             for i, name in enumerate(("Bob", "Rob"))]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GETBIT_DB": str(db)}
    getbit = [sys.executable, "-c", "from cli import main; main()"]
    procs = [
        subprocess.Popen(
            [*getbit, "import", str(f), "--replaces", old],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for f in files
    ]
    done = [(p.wait(timeout=120), p.stdout.read(), p.stderr.read())  # type: ignore[union-attr]
            for p in procs]
    assert sorted(code for code, _, _ in done) == [0, 2]
    _, _, lost = next(d for d in done if d[0] == 2)
    assert f"game {old} is already superseded by" in " ".join(lost.split())
    with GameStore(db) as store:
        assert len(store.table_rows("history")) == 1
        assert store.count() == 2  # the losing record is not stored either
    assert check_store(db).ok


def test_a_revision_waits_for_a_writer_and_then_sees_its_fact(
    db: Path, club: tuple[str, Path], tmp_path: Path
) -> None:
    old, fixed = club
    records = [validate_game(g) for g in read_gbn(_record(annotator="Rob"), "rob.gbn")]
    with GameStore(db) as first, GameStore(db, timeout=0.2) as second:
        with first.batch():
            new = first.add(validate_game(read_gbn(fixed.read_text(), "fixed.gbn")[0]))
            first.supersede(new.game_id, old)
            # a clear error, not a crash
            with pytest.raises(StoreError, match="locked"), second.batch():
                second.supersede(second.add(records[0]).game_id, old)
        with pytest.raises(InputError, match=f"already superseded by {new.game_id}"), \
                second.batch():
            second.supersede(second.add(records[0]).game_id, old)
        assert len(second.table_rows("history")) == 1
        assert second.count() == 2


# -- the revision hint ---------------------------------------------------------------


def test_import_says_what_a_record_looks_like_a_revision_of(
    runner: CliRunner, db: Path, club: tuple[str, Path]
) -> None:
    old, fixed = club
    code, out, err = _run(runner, "import", str(fixed), "--db", str(db), "--json")
    assert code == 0
    said = " ".join(err.split())
    command = f"getbit import {fixed} --db {db} --replaces {old}"
    assert f"looks like a revision of {old}; to replace it: {command}" in said
    (hint,) = json.loads(out)["revisions"]
    assert hint["revision_of"] == [old]
    assert hint["command"] == command
    assert _stats(runner, db)["games_included"] == 2  # said, never acted on


def test_the_hint_is_a_command_to_run_as_it_is(
    runner: CliRunner, tmp_path: Path, db: Path, club: tuple[str, Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # it left out --db (run as said, it made an empty getbit.db here and failed) and did
    # not quote a file name with a space or a quote in it
    old, fixed = club
    odd = fixed.rename(tmp_path / "Bob's fixed game.gbn")
    monkeypatch.chdir(tmp_path)
    code, out, _ = _run(runner, "import", str(odd), "--db", str(db), "--json")
    assert code == 0
    (hint,) = json.loads(out)["revisions"]
    argv = shlex.split(hint["command"])
    assert argv[:2] == ["getbit", "import"]
    code, out, err = _run(runner, *argv[1:])  # stored already: it only appends the fact
    assert code == 0, err
    assert f"supersedes {old}" in out
    assert not (tmp_path / "getbit.db").exists()
    monkeypatch.setenv("GETBIT_DB", str(db))  # the store getbit opens anyway: no --db
    other = _file(tmp_path, "again.gbn", _record(annotator="Bo"))
    code, out, _ = _run(runner, "import", str(other), "--json")
    (hint,) = json.loads(out)["revisions"]
    assert "--db" not in hint["command"]


def test_replaces_reads_a_record_piped_in(
    runner: CliRunner, db: Path, club: tuple[str, Path]
) -> None:
    # it said "-: no such file" (and "holds no game" for /dev/stdin and <(...))
    old, fixed = club
    result = runner.invoke(app, ["import", "--format", "gbn", "-", "--db", str(db),
                                 "--replaces", old], input=fixed.read_text(encoding="utf-8"))
    assert result.exit_code == 0, result.stderr
    assert f"supersedes {old}" in result.stdout


def test_replaces_makes_no_store(runner: CliRunner, tmp_path: Path, club: tuple[str, Path]) -> None:
    old, fixed = club
    missing = tmp_path / "nowhere.db"
    code, _, err = _run(runner, "import", str(fixed), "--db", str(missing), "--replaces", old)
    assert code == 2
    assert f"no store at {missing}" in err
    assert not missing.exists()


@pytest.mark.parametrize(
    "text",
    [
        _record(date="2026-11-27"),  # another date: another game
        _record(seed=7, annotator="Bob"),  # another starting line
        write_gbn(simulate_games(1, "standard", 4, 1, "random")),  # no Event, no Date
    ],
    ids=["other-date", "other-line", "untagged"],
)
def test_no_hint_for_a_record_that_names_another_game(
    runner: CliRunner, db: Path, club: tuple[str, Path], tmp_path: Path, text: str
) -> None:
    path = _file(tmp_path, "more.gbn", text)
    code, out, err = _run(runner, "import", str(path), "--db", str(db), "--json")
    assert code == 0
    assert "looks like a revision" not in err
    assert json.loads(out)["revisions"] == []


def test_a_stored_game_without_a_date_is_still_hinted_by_its_event(
    runner: CliRunner, db: Path, tmp_path: Path
) -> None:
    undated = _record().replace('[Date "2026-11-20"]\n', "")
    old = _import(runner, db, _file(tmp_path, "undated.gbn", undated))
    _, out, _ = _run(runner, "import", str(_file(tmp_path, "dated.gbn", _record(annotator="Bob"))),
                     "--db", str(db), "--json")
    assert json.loads(out)["revisions"][0]["revision_of"] == [old]


@pytest.mark.parametrize(
    ("stored_table", "table", "event", "hinted"),
    [
        (None, None, "Friday club", True),
        (None, None, "Monday club", False),
        ("3", "3", "Friday club", True),
        ("3", "4", "Friday club", False),
        (None, "4", "Friday club", True),
    ],
    ids=["same-event", "other-event", "same-table", "other-table", "stored-without-table"],
)
def test_a_record_without_a_date_is_hinted_by_its_event_and_told_apart_by_its_table(
    runner: CliRunner,
    db: Path,
    tmp_path: Path,
    stored_table: str | None,
    table: str | None,
    event: str,
    hinted: bool,
) -> None:
    def tagged(text: str, table: str | None) -> str:
        return (f'[Table "{table}"]\n' if table is not None else "") + text

    old = _import(runner, db, _file(tmp_path, "dated.gbn", tagged(_record(), stored_table)))
    undated = tagged(
        _record(annotator="Bob").replace('[Date "2026-11-20"]\n', "").replace("Friday club", event),
        table,
    )
    _, out, _ = _run(runner, "import", str(_file(tmp_path, "undated.gbn", undated)),
                     "--db", str(db), "--json")
    revisions = json.loads(out)["revisions"]
    assert [r["revision_of"] for r in revisions] == ([[old]] if hinted else [])


def test_the_hint_finds_the_games_of_a_line_and_date_through_their_index(db: Path) -> None:
    # not by reading the tags of every stored game of the line (or every game): an
    # archive of many dated games of the same players imported in time growing with the
    # square of their number
    undated = _record(seed=2).replace('[Date "2026-11-20"]\n', "")
    calls: list[str] = []
    with GameStore(db) as store:
        store.db.conn.set_trace_callback(calls.append)
        with store.batch():
            for text in (_record(), undated):
                store.add(validate_game(read_gbn(text, "club.gbn")[0]))
        store.db.conn.set_trace_callback(None)
        looked = [c for c in calls if "swimmers = " in c]
        assert len(looked) == 2
        assert schema.TAG_DATE in looked[0]  # the dated record's: this line, this Date
        # the undated one's: this line, and only its games of this Event read back
        assert schema.tag_value("Event") in looked[1]
        for statement in looked:
            plan = " ".join(str(row) for row in store.db.execute("EXPLAIN QUERY PLAN " + statement))
            assert "games_line_date" in plan
            assert "SCAN games" not in plan


def test_no_hint_for_a_superseded_game(
    runner: CliRunner, db: Path, club: tuple[str, Path], tmp_path: Path
) -> None:
    old, fixed = club
    _run(runner, "import", str(fixed), "--db", str(db), "--replaces", old)
    with GameStore(db) as store:
        (new,) = [g.id for g in store.games()]
    again = _file(tmp_path, "again.gbn", _record(annotator="Bob B."))
    _, out, _ = _run(runner, "import", str(again), "--db", str(db), "--json")
    assert json.loads(out)["revisions"][0]["revision_of"] == [new]  # the live one only


# -- check -------------------------------------------------------------------------


def test_check_finds_a_history_rewritten_behind_the_stores_back(
    runner: CliRunner, db: Path, club: tuple[str, Path]
) -> None:
    old, _ = club
    _run(runner, "retract", old, "--db", str(db), "--reason", "x")
    conn = sqlite3.connect(db)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("DELETE FROM history")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("UPDATE history SET reason = 'y'")
    conn.execute("DROP TRIGGER history_no_replace")
    conn.execute(
        "INSERT INTO history (kind, game, reason, at, prev, chain) "
        "VALUES ('retracts', ?, 'z', 'now', '', '')",
        (old,),
    )
    conn.commit()
    conn.close()
    result = check_store(db)
    problems = [str(d) for d in result.damage]
    assert f"game {old} is damaged: it is retracted more than once" in problems
    assert any("history_no_replace dropped" in p for p in problems)
    assert any("history fact 2 was changed" in p for p in problems)


def test_check_finds_a_fact_removed_from_the_history(
    runner: CliRunner, db: Path, club: tuple[str, Path]
) -> None:
    old, fixed = club
    _run(runner, "import", str(fixed), "--db", str(db), "--replaces", old)
    assert check_store(db).ok
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER history_no_delete")
    conn.execute("DELETE FROM history")  # the old game would silently count again
    conn.commit()
    conn.close()
    problems = [str(d) for d in check_store(db).damage]
    assert any("history's head does not match its facts" in p for p in problems)
    assert any("history_no_delete dropped" in p for p in problems)


# -- item 5: broken set-ups in a store's statistics ----------------------------------


def test_stats_over_the_store_counts_a_broken_setup_as_stats_file_does(
    runner: CliRunner, db: Path
) -> None:
    _run(runner, "import", str(BAD_SETUP), "--db", str(db))
    _code, out, _ = _run(runner, "stats", str(BAD_SETUP), "--json")
    from_file = json.loads(out)["games_excluded"]["invalid"]
    assert from_file == 1
    assert _stats(runner, db)["games_excluded"]["invalid"] == 1  # type: ignore[index]
    # the rows path (an alias makes the report read every row) counts it too
    many = _stats(runner, db, "--alias", "a=b")
    assert many["games_excluded"]["invalid"] == 1  # type: ignore[index]


def test_a_store_from_before_the_history_is_checked_and_then_migrated(tmp_path: Path) -> None:
    import sqlite_utils

    from store import MIGRATIONS

    old = tmp_path / "old.db"
    db = sqlite_utils.Database(old)
    MIGRATIONS.apply(db, stop_before="m004_history")
    db.close()
    before = check_store(old)
    assert before.ok
    assert any("history of revisions was not checked" in note for note in before.notes)
    with GameStore(old) as store:
        game = store.add(validate_game(read_gbn(_record(), "club.gbn")[0])).game_id
        store.retract(game, "a test")
        assert store.left_out() == {"superseded": 0, "retracted": 1, "broken": 0}
    assert check_store(old).notes == ()


def test_a_revision_that_still_breaks_the_rules_is_stored_as_invalid_exit_1(
    runner: CliRunner, db: Path, club: tuple[str, Path], tmp_path: Path
) -> None:
    old, _ = club
    text = "\n".join(
        "15. " + line[3:] if line.startswith("3. ") else line
        for line in _record(annotator="Bob").splitlines()
    )
    wrong = _file(tmp_path, "wrong.gbn", text + "\n")
    code, out, err = _run(runner, "import", str(wrong), "--db", str(db), "--replaces", old,
                          "--reason", "typo", "--json")
    assert code == 1
    assert "round" in err  # its violations are said
    data = json.loads(out)
    assert (data["stored"], data["status"], data["supersedes"], data["reason"]) == (
        True, "invalid", old, "typo")
    with GameStore(db) as store:
        assert store.dropped() == {old: "superseded"}
