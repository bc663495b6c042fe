"""``getbit import --jobs N`` and ``store.jobs`` (issue 15): games read and checked in
worker processes, stored by one writer in the order of the input, so the store
comes out the same whatever N; bad input said as before; a kill loses at most the
batch in flight."""

from __future__ import annotations

import gc
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli import app
from getbit_events.simulate import simulate_games
from importers import pieces, read_file, workers
from importers.gbn import write_gbn
from importers.jsonl import write_jsonl
from store import GameStore, adding, check_store, importing, jobs

#: what these test is plain Python in both builds (none of setup.py's COMPILED is their
#: subject): the compiled build's pass of .ci/run leaves them to the plain pass

ROOT = Path(__file__).resolve().parent.parent

BROKEN = """[Line "Ann, Bob, Cid, Dee"]
1. Ann 1, Bob 2, Cid 3, Dee 4
2. Ann 2, Bob 3, Cid 4, Dee 5 ; bit Dee

[Line "Ann, Bob, Cid, Dee"]
1. Ann 1, Bob 2, Cid ???, Dee 4
"""


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def records(tmp_path: Path) -> Path:
    """A folder of records: GBN and JSON Lines, a game twice, games that break the
    rules, a game that cannot be read, a game that is not UTF-8 text."""
    folder = tmp_path / "records"
    folder.mkdir()
    games = list(simulate_games(40, "standard", 5, 7, "random"))
    (folder / "a.gbn").write_text(write_gbn(games[:25]) + "\n" + BROKEN, "utf-8")
    events = [(f"g{k}", g) for k, g in enumerate(games[20:])]  # five again
    (folder / "b.jsonl").write_text("".join(write_jsonl(events)), "utf-8")
    (folder / "c.gbn").write_bytes(b'[Line "Ann, Bob\xff, Cid, Dee"]\n1. Ann 1\n')
    (folder / "d.gbn").write_text(write_gbn(simulate_games(9, "shark", 4, 2, "sensible")), "utf-8")
    return folder


@pytest.fixture
def damaged(records: Path) -> Path:
    """``records`` and a damaged JSON Lines log (``e.jsonl``): a game with a line
    missing, a broken line after it naming the next game, a line of no game, a game
    with a line missing and a line naming another game. A
    worker finds the games of the others' shares without reading them, but where a
    game ends in such a log depends on what its lines say (``importers.skipping``)."""
    lines = list(write_jsonl(
        (f"e{k}", g) for k, g in enumerate(simulate_games(12, "standard", 4, 11, "random"))
    ))
    starts = [k for k, line in enumerate(lines) if '"game-started"' in line]
    lines.insert(starts[4], '{"type":"cards-revealed","game":"e4","seq":2,\n')
    del lines[starts[3] + 2]  # game e3 loses a line: spoilt
    lines[starts[8] + 3] = lines[starts[8] + 3].replace('"game":"e8",', "")
    # game e6 spoilt too, and a later line of it names another game: a game of its own
    lines[starts[6] + 5] = lines[starts[6] + 5].replace('"game":"e6"', '"game":"elsewhere"')
    del lines[starts[6] + 2]
    (records / "e.jsonl").write_text("".join(lines), "utf-8")
    return records


def _import(records: Path, db: Path, n: int) -> tuple[int, str, str]:
    return _run("import", "--db", str(db), "--jobs", str(n), str(records))


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of workers each run of ``in_order`` started (validate's and import's)."""
    counts: list[int] = []
    real = workers.in_order

    def spy(items: object, work: object, n: int, *rest: object, **named: object) -> object:
        counts.append(n)
        return real(items, work, n, *rest, **named)  # type: ignore[arg-type]

    monkeypatch.setattr(workers, "in_order", spy)  # validate's
    monkeypatch.setattr(jobs, "in_order", spy)  # import's
    return counts


@pytest.fixture
def eight_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if this machine had 8 cores: ``--jobs 3`` starts 3 workers, an uneven share,
    even on CI's two (``workers_for`` starts no more workers than cores)."""
    monkeypatch.setattr(workers, "cores", lambda: 8)


def _said(db: Path) -> dict[str, object]:
    with GameStore(db) as store:
        ids = [g.id for g in store.games(everything=True) if g.events]
        head = store.db.execute("SELECT value FROM meta WHERE key = 'chain'").fetchone()[0]
    return {
        "export": _run("export", "--db", str(db), "--format", "jsonl", *ids)[1],
        "games": _run("games", "--db", str(db), "--json")[1],
        "stats": _run("stats", "--db", str(db), "--json")[1],
        "head": head,
    }


@pytest.mark.patched
@pytest.mark.parametrize("most", [20_000, 12_000])
def test_a_log_read_in_pieces_stores_what_one_process_stores(
    damaged: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, most: int
) -> None:
    """The workers read e.jsonl's pieces apart (each game's own; at 12,000 bytes, the
    third game is past the largest piece, and the rest is read the usual way): the
    same games, numbered the same, as one process reading it whole."""
    monkeypatch.setattr(adding, "utc_now", lambda: "2026-01-01T00:00:00+00:00")
    monkeypatch.setattr(jobs, "CHUNK", 2)
    monkeypatch.setattr(pieces, "PIECE_MAX", most)
    monkeypatch.setattr(pieces, "BLOCK", 1_000)
    log = damaged / "e.jsonl"
    kinds = {type(p).__name__ for p in pieces.pieces(log, str(log), "jsonl")}
    assert kinds == ({"Piece"} if most == 20_000 else {"Piece", "Rest"})
    said = {}
    for n in (1, 2):
        db = tmp_path / f"jobs{n}.db"
        code, out, err = _import(log, db, n)
        said[n] = (code, out, err, _said(db))
        with GameStore(db) as store:
            said[n] += (store.db.execute(
                "SELECT source_line, source_game FROM games ORDER BY rowid").fetchall(),)
    assert said[1][0] == 1  # its damaged games: said as they are
    assert said[2] == said[1]
    assert max(g for _, g in said[1][-1]) > len(said[1][-1])  # games unread between


@pytest.mark.patched
def test_one_job_or_several_store_the_same(
    damaged: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    eight_cores: None,
    started: list[int],
) -> None:
    monkeypatch.setattr(adding, "utc_now", lambda: "2026-01-01T00:00:00+00:00")
    monkeypatch.setattr(jobs, "CHUNK", 4)  # many chunks, each worker several
    said = {}
    for n in (1, 2, 3):
        db = tmp_path / f"jobs{n}.db"
        code, out, err = _import(damaged, db, n)
        said[n] = (code, out, err, _said(db))
        assert check_store(db).ok
    code, _, err, _ = said[1]
    assert code == 1  # games that break the rules or cannot be read: said as they are
    # c.gbn is not UTF-8: read as detected, said once (by the writer) whatever the jobs
    assert err.count("c.gbn: not UTF-8 text; read as") == 1
    assert "c.gbn:2:1: round 1: Dee is still in the game but plays no card" in err
    assert "a.gbn game 26" in err
    assert "e.jsonl:" in err  # its damaged games, said
    assert said[2] == said[1]
    assert said[3] == said[1]
    assert started == [2, 3]  # jobs 1 checks where it reads
    assert json.loads(said[1][3]["stats"])  # type: ignore[arg-type]


def test_the_jobs_default_to_the_cores_for_an_input_worth_sharing(
    records: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[int] = []
    real = jobs.checked_games

    def spy(items: object, valid_only: bool, n: int) -> object:
        asked.append(n)
        return real(items, valid_only, n)  # type: ignore[arg-type]

    monkeypatch.setattr("store.importing.checked_games", spy)
    # under SMALL_INPUT bytes: checked where they are read, no worker started
    small = tmp_path / "small.gbn"
    small.write_text(write_gbn(simulate_games(5, "standard", 5, 3, "random")), "utf-8")
    assert small.stat().st_size < workers.SMALL_INPUT <= sum(
        f.stat().st_size for f in records.iterdir()
    )
    _run("import", "--db", str(tmp_path / "g.db"), str(small))
    _run("import", "--db", str(tmp_path / "g.db"), str(records))
    assert asked == [1, workers.default_jobs()]
    code, _, err = _run("import", "--db", str(tmp_path / "g.db"), "--jobs", "0", str(records))
    assert code == 2
    assert "--jobs" in err


@pytest.mark.parametrize("command", ["import", "validate"])
def test_more_jobs_than_cores_start_as_many_workers_as_cores_said_and_work_the_same(
    records: Path, tmp_path: Path, command: str, started: list[int]
) -> None:
    cores = workers.cores()
    db = ["--db", str(tmp_path / "g.db")] if command == "import" else []
    code, out, err = _run(command, *db, "--jobs", str(cores + 3), str(records))
    many = "s" if cores > 1 else ""
    slower = (
        f"warning: --jobs {cores + 3} is more than the {cores} core{many} getbit may use "
        f"here: starting {cores} worker{many} (more would only take turns on the cores, "
        "slower, each with memory of its own)\n"
    )
    assert err.count(slower) == 1, err
    db = ["--db", str(tmp_path / "h.db")] if command == "import" else []
    as_many = _run(command, *db, "--jobs", str(cores), str(records))
    assert "--jobs" not in as_many[2]
    assert (code, out, err.replace(slower, "")) == as_many
    # the same workers either way: as many as the cores, never the 3 more asked for
    assert started == ([cores, cores] if cores > 1 else [])
    assert workers.too_many_jobs(None) is None
    assert workers.workers_for(cores + 3) == cores
    assert workers.workers_for(1) == 1
    assert workers.workers_for(None) == cores  # no --jobs: the cores
    assert workers.workers_for(None, workers.SMALL_INPUT - 1) == 1  # or one, for little


def test_a_bug_in_checking_a_game_costs_only_that_game(
    records: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = jobs.validate_game
    # the third game of a.gbn, by where it begins (a worker numbers a piece's games from 1)
    third = [g.pos.line for g in read_file(records / "a.gbn")][2]

    def flaky(record: object) -> object:
        pos = getattr(record, "pos", None)
        if getattr(pos, "line", None) == third and "a.gbn" in str(getattr(record, "source", "")):
            raise ZeroDivisionError("boom")
        return real(record)  # type: ignore[arg-type]

    monkeypatch.setattr(jobs, "validate_game", flaky)
    for n in (1, 2):
        db = tmp_path / f"g{n}.db"
        code, _, err = _import(records, db, n)
        assert code == 3
        assert "a.gbn:" in err
        assert "ZeroDivisionError: boom (please report it)" in err
        with GameStore(db) as store:
            # a.gbn's 25 and its invalid one, b.jsonl's 15 new, c.gbn's (read as
            # detected, invalid), d.gbn's 9; less the one
            assert store.count() == 25 + 1 + 15 + 1 + 9 - 1


def test_an_import_in_one_process_sets_the_collector_aside_and_back(
    records: Path, tmp_path: Path
) -> None:
    # while one process imports, what it held before is frozen and the collector runs
    # less often (docs/architecture.md, "Speed tricks"); after, both are as they were,
    # also when the import fails
    seen: list[tuple[tuple[int, ...], bool]] = []

    def on_report(item: object, result: object) -> None:
        seen.append((gc.get_threshold(), gc.get_freeze_count() > 0))

    before = gc.get_threshold()
    assert gc.get_freeze_count() == 0
    with GameStore(tmp_path / "one.db") as store:
        summary = importing.import_paths(store, [records], on_report=on_report, jobs=1)
    assert summary.stored > 0
    assert set(seen) == {(importing.ONE_PROCESS_GC, True)}
    assert (gc.get_threshold(), gc.get_freeze_count()) == (before, 0)

    def fails(item: object, result: object) -> None:
        raise KeyboardInterrupt

    with GameStore(tmp_path / "two.db") as store, pytest.raises(KeyboardInterrupt):
        importing.import_paths(store, [records], on_report=fails, jobs=1)
    assert (gc.get_threshold(), gc.get_freeze_count()) == (before, 0)


@pytest.mark.parametrize("n", [1, 2])
def test_an_import_leaves_a_callers_frozen_objects_and_thresholds_alone(
    records: Path, tmp_path: Path, n: int
) -> None:
    # with workers, in_order freezes this process's objects as it starts them (for
    # their memory) and used to unfreeze the caller's with its own
    seen: list[tuple[int, ...]] = []
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with GameStore(tmp_path / "one.db") as store:
            importing.import_paths(
                store, [records], on_report=lambda *_: seen.append(gc.get_threshold()), jobs=n
            )
        assert set(seen) == {gc.get_threshold()} != {importing.ONE_PROCESS_GC}
        assert frozen > 0
        assert gc.get_freeze_count() > 0  # (some of them may have gone since)
    finally:
        gc.unfreeze()


_KILLED_IMPORT = """
import sys
from pathlib import Path
from store import GameStore
from store import importing
from store.importing import import_paths
importing.BATCH_GAMES = 5
with GameStore(Path(sys.argv[1])) as store:
    import_paths(store, [Path(sys.argv[2])], jobs=2,
                 on_report=lambda item, result: print("stored", flush=True))
"""


def test_a_kill_mid_import_with_workers_leaves_no_half_game(tmp_path: Path) -> None:
    db, games = tmp_path / "games.db", tmp_path / "big.gbn"
    games.write_text(write_gbn(simulate_games(300, "standard", 5, 3, "random")), "utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-c", _KILLED_IMPORT, str(db), str(games)],
        stdout=subprocess.PIPE, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.stdout is not None
    for _ in range(12):
        assert proc.stdout.readline()
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # its workers see it gone and stop
        found = subprocess.run(["pgrep", "-f", str(games)], capture_output=True, text=True)
        if not found.stdout.strip():
            break
        time.sleep(0.2)
    else:
        pytest.fail("the workers of a killed import are still running")
    conn = sqlite3.connect(db)
    stored = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    counts = dict(conn.execute("SELECT game_id, COUNT(*) FROM events GROUP BY game_id"))
    held = dict(conn.execute("SELECT id, events FROM games"))
    conn.close()
    assert 10 <= stored < 300
    assert counts == held  # every game stored is whole
    assert check_store(db).ok
    code, out, _ = _import(games, db, 2)  # and the rest comes in
    assert code == 0
    assert f"{stored} already stored" in out
    with GameStore(db) as store:
        assert store.count() == 300


_INTERRUPTED_IMPORT = """
import signal
import sys
# Ctrl-C as at a terminal: a shell's background job (a CI run started with &) starts
# with SIGINT ignored, and Python then leaves it ignored (the import ran to its end)
signal.signal(signal.SIGINT, signal.default_int_handler)
from store import importing
importing.BATCH_GAMES = 5
from cli import main
sys.argv = ["getbit", "import", "--db", sys.argv[1], "--jobs", "2", sys.argv[2]]
main()
"""


def test_ctrl_c_mid_import_says_what_is_kept_and_leaves_nothing_running(tmp_path: Path) -> None:
    db, games = tmp_path / "games.db", tmp_path / "big.gbn"
    games.write_text(write_gbn(simulate_games(400, "standard", 5, 4, "random")), "utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-c", _INTERRUPTED_IMPORT, str(db), str(games)],
        stderr=subprocess.PIPE, text=True, cwd=ROOT, start_new_session=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # some batches stored: mid-import
        try:
            with sqlite3.connect(db) as conn:
                if conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] >= 10:
                    break
        except sqlite3.Error:
            pass
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C: the terminal signals the whole group
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1] == (
        "getbit import: interrupted: the games stored before are kept, each whole; the same "
        "import again stores the rest (it finds those stored already)"
    )
    assert "Traceback" not in err
    found = subprocess.run(["pgrep", "-f", str(games)], capture_output=True, text=True)
    assert not found.stdout.strip()  # no worker left
    assert check_store(db).ok
    with GameStore(db) as store:
        stored = store.count()
    assert 10 <= stored < 400
    code, out, _ = _import(games, db, 2)
    assert code == 0
    assert f"{stored} already stored" in out


@pytest.mark.parametrize("as_json", [[], ["--json"]])
def test_validate_says_the_same_whatever_the_jobs(
    damaged: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    as_json: list[str],
    eight_cores: None,
    started: list[int],
) -> None:
    monkeypatch.setattr(workers, "CHUNK", 3)  # validate's workers (it loads no store)
    missing = str(tmp_path / "none.gbn")
    said = [
        _run("validate", "--jobs", str(n), *as_json, str(damaged), missing)
        for n in (1, 2, 3)
    ]
    assert said[0][0] == 2  # a path that is not there
    assert "none.gbn: no such file or folder" in said[0][2]
    assert said[1] == said[0]
    assert said[2] == said[0]
    assert started == [2, 3]  # three workers, as asked, and two


def test_validate_writes_names_as_given_whatever_the_jobs(tmp_path: Path) -> None:
    """A worker's JSON is written as this process would write it: a name with
    letters beyond ASCII (and a stray byte-order mark) comes out raw on a UTF-8
    stdout, not as JSON escapes, with one job or several."""
    record = tmp_path / "names.gbn"
    game = '[Line "Zoë, Anne, Beth\ufeff, Ted"]\n\n1. Zoë 4, Anne 1, Beth\ufeff 4, Ted 5\n\n'
    record.write_text(game * 4, encoding="utf-8")
    said = [_run("validate", "--jobs", str(n), "--json", str(record)) for n in (1, 2)]
    assert "Zoë" in said[0][1]
    assert said[1] == said[0]


def test_validate_starts_workers_only_for_an_input_worth_sharing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[int] = []
    real = workers.in_order

    def spy(items: object, work: object, n: int, *rest: object, **named: object) -> object:
        started.append(n)
        return real(items, work, n, *rest, **named)  # type: ignore[arg-type]

    monkeypatch.setattr(workers, "in_order", spy)
    small = tmp_path / "small.gbn"
    small.write_text(write_gbn(simulate_games(5, "standard", 5, 3, "random")), "utf-8")
    big = tmp_path / "big.gbn"
    big.write_text(write_gbn(simulate_games(80, "standard", 5, 3, "random")), "utf-8")
    assert _run("validate", str(small))[0] == 0
    assert started == []
    assert _run("validate", str(big))[0] == 0
    assert started == ([workers.default_jobs()] if workers.default_jobs() > 1 else [])


@pytest.mark.patched
@pytest.mark.parametrize("command", ["import", "validate"])
def test_a_file_gone_between_the_workers_reads_stops_them_and_costs_no_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """b.gbn is deleted after one worker opened it and before the other did: they no
    longer agree on which game is which, so the command stops and says so, rather than
    store a game twice and leave out games of c.gbn without a word. What was stored
    is whole, and the same import again stores the rest."""
    folder = tmp_path / "records"
    folder.mkdir()
    for name, count, seed in (("a", 150, 1), ("b", 40, 2), ("c", 150, 3)):
        (folder / f"{name}.gbn").write_text(
            write_gbn(simulate_games(count, "standard", 5, seed, "random")), "utf-8")
    first = tmp_path / "first-open"

    def gone_after_the_first_open(real: object) -> object:
        def opened(path: object, *args: object, **kwargs: object) -> object:
            if Path(str(path)).name == "b.gbn":
                try:
                    os.close(os.open(first, os.O_CREAT | os.O_EXCL))
                except FileExistsError:  # the other worker: the file is gone by now
                    from getbit_events.errors import InputError
                    raise InputError(f"{path}: cannot read: No such file or directory") from None
            return real(*(path, *args), **kwargs)  # type: ignore[operator]
        return opened

    import cli.checking
    import importers

    records = gone_after_the_first_open(importers.iter_records)
    monkeypatch.setattr(importers, "iter_records", records)  # import's
    cut = gone_after_the_first_open(importers.record_pieces)
    monkeypatch.setattr(importers, "record_pieces", cut)  # import's, in pieces
    monkeypatch.setattr(cli.checking, "_games", gone_after_the_first_open(cli.checking._games))
    db = tmp_path / "s.db"
    args = ["--db", str(db)] if command == "import" else []
    code, _out, err = _run(command, *args, "--jobs", "2", str(folder))
    assert code == 2
    assert "the files changed while they were read" in err
    if command == "validate":
        return
    assert check_store(db).ok
    monkeypatch.undo()
    code, _, err = _import(folder, db, 2)
    assert code == 0, err
    clean = tmp_path / "clean.db"
    assert _import(folder, clean, 1)[0] == 0
    assert _said(db)["export"] == _said(clean)["export"]
    assert _said(db)["stats"] == _said(clean)["stats"]
