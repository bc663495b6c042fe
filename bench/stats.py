"""Statistics speed: the read model against a bare SQL aggregate over the events.

    python bench/stats.py [--games N] [--db PATH] [--keep] [--repeat R]

Imports N simulated games (default 100,000; every variant, dated so the rating
and streaks have an order) into a fresh store, then times, in this process:

(a) ``getbit stats --db PATH`` (every player, the rich table, rendered): the
    totals read model the store keeps as games arrive (per-player counts,
    pairs, ratings and streaks: ``reports/totals.py``) and one GROUP BY over
    ``game_swimmers`` for the starting places;
(b) ``getbit stats --db PATH --player Ann`` (one player's full profile): the
    same, and the places of Ann's games;
(c) one bare SQL aggregate over the events: bites per swimmer,
    ``SELECT json_extract(payload, '$.who'), COUNT(*) FROM events WHERE
    type = 'swimmer-bitten' GROUP BY 1``, the least any statistic straight
    from the events must do, over a plain table of them (one row an event, as
    the store kept them before ``m006_compact``: the same yardstick before and
    after; the store's view ``events`` is timed too, for SQL users);

and (d) the same command as (a) run as a separate ``getbit`` process, start-up
included. Goal: (a) and (b) faster than (c). Each timing is the best of
``--repeat`` runs (every run is shown on stderr; nothing is kept between runs
but SQLite's and the OS's pages). The import is timed too: keeping the totals
is part of its work. The simulated games are trusted (they are played by the
rules' own engine), so importing skips the validator: its speed is
bench/validate.py's business.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import multiprocessing
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The package as installed, compiled or not (``pip install .`` compiles the hot modules
# with mypyc; an editable install is the source tree); the source tree if not installed,
# and then for the processes this bench starts too (``SOURCE``, their PYTHONPATH).
# This folder is left off the path: its store.py, replay.py would hide those packages.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
SOURCE = {} if importlib.util.find_spec("getbit_events") else {"PYTHONPATH": str(ROOT)}
if SOURCE:
    sys.path.insert(0, str(ROOT))

from typer.testing import CliRunner  # noqa: E402

from cli import app  # noqa: E402
from getbit_events.events import Event, SourcePos  # noqa: E402
from getbit_events.record import RecordedGame  # noqa: E402
from getbit_events.simulate import SETUPS, simulate_game  # noqa: E402
from getbit_events.validate import GameReport  # noqa: E402
from store import GameStore  # noqa: E402

BARE = (
    "SELECT json_extract(payload, '$.who') AS who, COUNT(*) FROM events "
    "WHERE type = 'swimmer-bitten' GROUP BY who"
)
START = datetime.date(2020, 1, 1)


def build() -> str:
    """Which build of getbit_events this bench measures."""
    import getbit_events.board as board

    compiled = not (board.__file__ or "").endswith(".py")
    return f"getbit_events, {'compiled by mypyc' if compiled else 'pure Python'}: " + str(
        Path(board.__file__ or "?").parent
    )


def _game(k: int) -> list[Event]:
    variant, swimmers = SETUPS[k % len(SETUPS)]
    date = (START + datetime.timedelta(days=k // 40)).isoformat()
    return simulate_game(variant, swimmers, k, "sensible" if k % 2 else "random",
                         k % 9 == 0, (("Date", date),))


def _reports(n: int, batch: int = 2_000) -> Iterator[GameReport]:
    with multiprocessing.Pool() as pool:
        for start in range(0, n, batch):  # a batch at a time: memory stays flat
            seeds = range(start, min(n, start + batch))
            for k, events in zip(seeds, pool.map(_game, seeds, chunksize=100), strict=True):
                record = RecordedGame("bench.gbn", k + 1, SourcePos("bench.gbn", 1))
                yield GameReport.of_events(record, events)


def _import(path: Path, n: int) -> float:
    start = time.perf_counter()
    with GameStore(path) as store:
        for k, report in enumerate(_reports(n), 1):
            store.add(report)
            if k % 10_000 == 0:
                rate = k / (time.perf_counter() - start)
                print(f"  imported {k:,} games ({rate:,.0f}/s)", file=sys.stderr)
    return time.perf_counter() - start


def _plain_events(conn: sqlite3.Connection, path: Path) -> sqlite3.Connection:
    """The store's events copied into a plain table of ``path``, one row an event."""
    if path.exists():
        path.unlink()
    conn.execute("ATTACH DATABASE ? AS plain", (str(path),))
    conn.execute(
        "CREATE TABLE plain.events (game_id TEXT, seq INTEGER, type TEXT NOT NULL, "
        "version INTEGER NOT NULL, round INTEGER NOT NULL, payload TEXT NOT NULL, "
        "PRIMARY KEY (game_id, seq))"
    )
    conn.execute(
        "INSERT INTO plain.events SELECT game_id, seq, type, version, round, payload "
        "FROM main.events"
    )
    conn.commit()
    conn.execute("DETACH DATABASE plain")
    return sqlite3.connect(path)


def _best(repeat: int, run: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    if len(times) > 1:
        print(f"  runs: {', '.join(f'{t:.2f}' for t in times)} s", file=sys.stderr)
    return min(times)


def _command(*args: str) -> Callable[[], None]:
    runner = CliRunner()

    def run() -> None:
        result = runner.invoke(app, list(args))
        if result.exit_code != 0:
            raise SystemExit(f"getbit {' '.join(args)} failed: {result.output}{result.stderr}")

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--db", type=Path, default=None, help="store file (default: a temp file)")
    parser.add_argument("--keep", action="store_true", help="reuse --db if it is already filled")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(build())
    folder = tempfile.mkdtemp(prefix="getbit-bench-")
    db = args.db or Path(folder) / "games.db"
    if args.keep and db.exists():
        print(f"reusing {db}")
    else:
        if db.exists():
            db.unlink()
        seconds = _import(db, args.games)
        print(f"import: {args.games:,} games in {seconds:.1f} s")
    with GameStore(db) as store:
        games = store.count()
    conn = sqlite3.connect(db)
    events = conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    rows = conn.execute("SELECT COUNT(*) FROM game_swimmers").fetchone()[0]
    stale = conn.execute("SELECT value FROM meta WHERE key = 'standings'").fetchone()
    print("standings: " + ("stale: (a) works them out again first" if stale and
                           stale[0] == "stale" else "up to date (kept at import)"))
    print(f"store: {games:,} games, {events:,} events, {rows:,} read-model rows, "
          f"{db.stat().st_size / 1e6:,.0f} MB")

    plain = _plain_events(conn, Path(folder) / "plain.db")
    bare = _best(args.repeat, lambda: plain.execute(BARE).fetchall())
    view = _best(args.repeat, lambda: conn.execute(BARE).fetchall())
    plain.close()
    full = _best(args.repeat, _command("stats", "--db", str(db)))
    profile = _best(args.repeat, _command("stats", "--db", str(db), "--player", "Ann"))
    # the getbit this bench measures, as ``getbit stats`` would run
    env = dict(os.environ, GETBIT_DB=str(db), **SOURCE)
    getbit = [sys.executable, "-c", "from cli import main; main()"]
    process = _best(
        1,
        lambda: subprocess.run([*getbit, "stats"], env=env, check=True,
                               stdout=subprocess.DEVNULL),
    )
    conn.close()
    print(f"(a) getbit stats, every player:        {full:7.2f} s")
    print(f"(b) getbit stats --player Ann:         {profile:7.2f} s")
    print(f"(c) bare SQL aggregate over events:    {bare:7.2f} s   (a plain table)")
    print(f"    ... over the store's view events:  {view:7.2f} s")
    print(f"(d) (a) as its own process:            {process:7.2f} s")
    print(f"(a)/(c) = {full / bare:.2f}, (b)/(c) = {profile / bare:.2f} "
          f"(goal: below 1): {'met' if max(full, profile) < bare else 'NOT met'}")


if __name__ == "__main__":
    main()
