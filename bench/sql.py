"""The statistics three ways, side by side, for the same store: ``getbit stats``
on the store, ``reports/sql`` in DuckDB over its Parquet export, and the same SQL
in Spark's local mode over the same files (issue 15).

    python bench/sql.py --db STORE [--parquet DIR] [--repeat 3] [--spark-cores 2]

Times, each the best of ``--repeat`` runs (every run on stderr):

(a) ``getbit stats --json --db STORE``, a process of its own, start-up included;
(b) ``getbit export --all --format parquet`` of the store into ``--parquet DIR``,
    once, when DIR does not hold an export yet (a process of its own);
(c) every file of ``reports/sql`` in DuckDB over the export, from a fresh
    connection each run (its three views made first), each file's rows fetched;
(d) the same files in Spark, ``local[N]``, in one session (its start timed apart),
    each file's rows collected; left out, saying so, without pyspark (``pip install
    -e '.[spark]'``, Java 17).

DuckDB's and Spark's rows must be the same, file by file (every number to 9
places): a timing of a query that gives nothing, or other rows, is no timing.
``tests/test_parquet.py`` and ``tests/test_spark.py`` hold the numbers themselves
equal to ``getbit stats --json``. Run it from outside the source tree with the
interpreter of the build to measure (README command 1's is the compiled one).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SQL = ROOT / "reports" / "sql"
GETBIT = Path(sys.executable).with_name("getbit")
VIEWS = ("games", "events", "swimmers")


def _best(label: str, repeat: int, run: Callable[[], Any]) -> tuple[float, Any]:
    """The least wall time of ``repeat`` runs of ``run()``, and what the last gave."""
    times = []
    got = None
    for n in range(repeat):
        started = time.perf_counter()
        got = run()
        times.append(time.perf_counter() - started)
        print(f"  {label} run {n + 1}: {times[-1]:.2f}s", file=sys.stderr, flush=True)
    return min(times), got


def _getbit(*args: str) -> str:
    done = subprocess.run([str(GETBIT), *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"getbit {' '.join(args)} failed ({done.returncode}): {done.stderr}")
    return done.stdout


def _normal(rows: list[Any]) -> list[tuple[Any, ...]]:
    """Rows as both engines' can be compared: every number a float to 9 places (one
    engine's whole number or decimal is the other's double), in one order."""

    def value(v: Any) -> Any:
        if isinstance(v, bool) or not isinstance(v, int | float | Decimal):
            return v
        return round(float(v), 9)

    return sorted((tuple(value(v) for v in row) for row in rows), key=repr)


def _duckdb(folder: Path, files: dict[str, str]) -> dict[str, list[tuple[Any, ...]]]:
    """Every file run in DuckDB from a fresh connection: the rows each gave."""
    import duckdb

    con = duckdb.connect()
    for view in VIEWS:
        where = (folder / view / "**" / "*.parquet").as_posix().replace("'", "''")
        con.execute(f"CREATE VIEW {view} AS SELECT * FROM "
                    f"read_parquet('{where}', hive_partitioning = true)")
    rows = {name: con.execute(text).fetchall() for name, text in files.items()}
    con.close()
    return rows


def _spark(folder: Path, files: dict[str, str], cores: int, repeat: int) -> None:
    """The files in one local Spark session: its start, then the best of ``repeat``."""
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        print("(d) Spark: left out, pyspark is not installed (pip install -e '.[spark]')")
        return
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")  # the machine's address may refuse
    started = time.perf_counter()
    session = (
        SparkSession.builder.master(f"local[{cores}]")
        .appName("getbit-bench")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")  # not the machine's address: it may refuse
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    start = time.perf_counter() - started
    try:
        for view in VIEWS:
            session.read.parquet(str(folder / view)).createOrReplaceTempView(view)

        def run() -> dict[str, tuple[list[Any], float]]:
            each = {}
            for name, text in files.items():
                began = time.perf_counter()
                got = [tuple(row) for row in session.sql(text).collect()]
                each[name] = (got, time.perf_counter() - began)
            return each

        best, each = _best("(d) Spark", repeat, run)
    finally:
        session.stop()
    print(f"(d) Spark local[{cores}]: {best:7.2f}s for the {len(files)} files, after "
          f"{start:.1f}s to start the session; the last run's files: "
          + ", ".join(f"{name} {secs:.2f}s" for name, (_, secs) in each.items()))
    try:
        duck = _duckdb(folder, files)
    except ImportError:
        print("    (not compared with DuckDB's rows: duckdb is not installed)")
        return
    for name, (rows, _) in each.items():
        if _normal(rows) != _normal(duck[name]):
            raise SystemExit(f"{name}: Spark's rows are not DuckDB's:\n{rows}\n{duck[name]}")
    print("    the same rows as DuckDB, file by file (numbers to 9 places)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="the store to measure")
    parser.add_argument("--parquet", type=Path,
                        help="its export (made here when the folder holds none; default: a "
                        "temporary folder)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--spark-cores", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat takes 1 or more")
    if not GETBIT.exists():
        raise SystemExit(f"no getbit next to {sys.executable}")
    if not args.db.is_file():
        raise SystemExit(f"{args.db}: no such store")
    files = {p.stem: p.read_text(encoding="utf-8") for p in sorted(SQL.glob("*.sql"))}
    with sqlite3.connect(f"file:{args.db}?mode=ro", uri=True) as conn:
        games = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    print(f"{args.db} ({args.db.stat().st_size / 1e6:.1f} MB, {games:,} games); getbit {GETBIT}")
    best, _ = _best("(a) stats", args.repeat, lambda: _getbit("stats", "--db", str(args.db),
                                                                 "--json"))
    print(f"(a) getbit stats --json: {best:7.2f}s (a process, start-up included)")
    made = None if args.parquet else Path(tempfile.mkdtemp(prefix="getbit-sql-"))
    folder = args.parquet or Path(str(made)) / "parquet"
    if not (folder / "events").is_dir():
        started = time.perf_counter()
        _getbit("export", "--all", "--format", "parquet", "-o", str(folder), "--db", str(args.db))
        size = sum(f.stat().st_size for f in folder.rglob("*.parquet")) / 1e6
        print(f"(b) getbit export --all --format parquet: {time.perf_counter() - started:7.1f}s, "
              f"{size:.1f} MB of Parquet in {folder}")
    else:
        print(f"(b) the export in {folder}, made before (not timed)")
    try:
        import duckdb  # noqa: F401
    except ImportError:
        print("(c) DuckDB: left out, duckdb is not installed (pip install duckdb)")
    else:
        best, rows = _best("(c) DuckDB", args.repeat, lambda: _duckdb(folder, files))
        print(f"(c) DuckDB: {best:7.2f}s for the {len(files)} files, from a fresh connection "
              f"(rows: {', '.join(f'{n} {len(r)}' for n, r in rows.items())})")
        if not all(rows.values()):
            raise SystemExit("a file gave no rows: nothing was measured")
    try:
        _spark(folder, files, args.spark_cores, args.repeat)
    finally:
        if made is not None:  # the export this run made in a temporary folder
            shutil.rmtree(made, ignore_errors=True)


if __name__ == "__main__":
    main()
