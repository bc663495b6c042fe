"""What an import stores, written out to compare two builds byte for byte.

    PY bench/import_oracle.py --out DIR FILE...      (PY: the Python of the build's venv)
    diff -r DIR_A DIR_B                              (nothing: the builds store the same)

Imports FILEs one by one (``--jobs 1``, then the same files again with ``--jobs
2`` into a second store) with the clock held still (``stored.utc_now``), so that
``imported_at`` and the chain values it goes into compare too, and writes to DIR:
every table of each store, its rows sorted (the migrations' times masked); ``getbit export --all
--format jsonl``, ``getbit stats --json`` and ``getbit games --json`` of the first;
each import's exit code, stdout and stderr. Run it from outside the source tree,
so that the build's compiled modules are the ones imported. Issue 15's import
changes must leave this output unchanged (docs/architecture.md, "Speed tricks").
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

# this folder holds bench/store.py: the package ``store`` is the build's, not it
_BENCH = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _BENCH]

_NOW = "2026-01-01T00:00:00+00:00"
_APPLIED = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+\+00:00")


def _hold_clock() -> None:
    """Every module that asks the time gets ``_NOW``."""
    import store.adding
    import store.revisions
    import store.stored

    for module in (store.stored, store.adding, store.revisions):
        module.utc_now = lambda: _NOW  # type: ignore[attr-defined]


def _run(args: list[str]) -> tuple[int, str, str]:
    """``getbit ARGS`` run by this Python with the clock held: exit code, stdout, stderr."""
    done = subprocess.run(
        [sys.executable, __file__, "--getbit", *args],
        capture_output=True, text=True, check=False,
    )
    return done.returncode, done.stdout, done.stderr


def _getbit(args: list[str]) -> None:
    """``getbit ARGS`` in this process, the clock held."""
    _hold_clock()
    from cli import main

    sys.argv = ["getbit", *args]
    main()


def _tables(db: Path) -> str:
    """Every table's rows, sorted."""
    conn = sqlite3.connect(db)
    lines: list[str] = []
    names = [r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    for name in names:
        lines.append(f"== {name}")
        rows = conn.execute(f'SELECT * FROM "{name}"').fetchall()
        rows.sort(key=repr)
        lines.extend(repr(row) for row in rows)
    conn.close()
    # the migrations' own times (the applied column) are the one clock not held
    return _APPLIED.sub("APPLIED", "\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--getbit"]:
        _getbit(argv[1:])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args(argv)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    for jobs in ("1", "2"):
        db = out / f"s{jobs}.db"
        db.unlink(missing_ok=True)
        log = []
        for f in args.files:
            code, stdout, stderr = _run(["import", "--db", str(db), "--jobs", jobs, str(f)])
            log.append(json.dumps([f.name, code, stdout, stderr]))
        (out / f"import{jobs}.log").write_text("\n".join(log) + "\n")
        (out / f"tables{jobs}.txt").write_text(_tables(db))
    db = str(out / "s1.db")
    for name, cmd in (
        ("export.jsonl", ["export", "--db", db, "--all", "--format", "jsonl"]),
        ("stats.json", ["stats", "--db", db, "--json"]),
        ("games.json", ["games", "--db", db, "--json"]),
    ):
        code, stdout, stderr = _run(cmd)
        (out / name).write_text(f"{code}\n{stdout}\n{stderr}")
    for jobs in ("1", "2"):
        (out / f"s{jobs}.db").unlink()
    print(f"{out}: {len(args.files)} files imported", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
