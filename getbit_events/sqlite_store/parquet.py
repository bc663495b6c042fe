"""A store's games as Parquet for DuckDB, Spark and the like: ``write_parquet``.

Three tables, each a folder of hive partitions (``bucket=<first hex digit of
the game id>``, 16 of them) holding files of at most ``rows_per_file`` rows:

- ``games``: one row a game, the ``games`` table's columns, the Event and Date
  tags as columns, the game's place in import order (``stored``) and what the
  history says of it (``revision``: ``live``, ``superseded`` or ``retracted``);
- ``events``: one row an event, as stored (``payload`` the JSON text), with the
  payload's common fields as typed columns (``who``, ``why``, ``limb``, ...);
- ``swimmers``: the statistics read model (``readmodel.COLUMNS``) with
  ``revision`` and ``stored``.

Every game of the selection is written, superseded and retracted ones too
(marked), so SQL over the files can say what ``getbit stats`` leaves out and
why. Rows are read from SQLite and written ``batch_rows`` at a time, all in one
read transaction (one snapshot); memory is bounded by a batch and pyarrow's
open files, not by the store. ``docs/scale.md`` has the schema and the SQL.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from getbit_events import readmodel
from getbit_events.errors import InputError, StoreError
from getbit_events.sqlite_store.schema import DROPPED, quote
from getbit_events.sqlite_store.store import GameStore

__all__ = ["FORMAT", "TABLES", "ParquetExport", "write_parquet"]

#: The layout's version, written to ``export.json``; bumped when a column changes.
FORMAT = 1
TABLES: tuple[str, ...] = ("games", "events", "swimmers")

_TYPES = {"TEXT": pa.string(), "INTEGER": pa.int64(), "REAL": pa.float64()}
_BUCKET = pa.schema([("bucket", pa.string())])

#: games: (column, Arrow type, SQL over ``games g`` and the history ``d``).
_GAMES: tuple[tuple[str, Any, str], ...] = (
    ("id", pa.string(), "g.id"),
    ("stored", pa.int64(), "g.rowid"),
    ("status", pa.string(), "g.status"),
    ("revision", pa.string(), "COALESCE(d.why, 'live')"),
    ("variant", pa.string(), "g.variant"),
    ("swimmers", pa.string(), "g.swimmers"),
    ("winner", pa.string(), "g.winner"),
    ("rounds", pa.int64(), "g.rounds"),
    ("events", pa.int64(), "g.events"),
    ("violations", pa.int64(), "g.violations"),
    ("event", pa.string(), "NULL"),  # filled from tags below
    ("date", pa.string(), "NULL"),
    ("date_tag", pa.string(), "NULL"),
    ("tags", pa.string(), "g.tags"),
    ("source", pa.string(), "g.source"),
    ("source_line", pa.int64(), "g.source_line"),
    ("source_game", pa.int64(), "g.source_game"),
    ("imported_at", pa.string(), "g.imported_at"),
    ("hash", pa.string(), "g.hash"),
)
_TAGS_AT = [c for c, _, _ in _GAMES].index("tags")
_EVENT_AT = [c for c, _, _ in _GAMES].index("event")

#: events: the envelope, the payload, and its common fields typed.
_EVENTS: tuple[tuple[str, Any, str], ...] = (
    ("game_id", pa.string(), "e.game_id"),
    ("seq", pa.int64(), "e.seq"),
    ("type", pa.string(), "e.type"),
    ("version", pa.int64(), "e.version"),
    ("round", pa.int64(), "e.round"),
    ("who", pa.string(), "json_extract(e.payload, '$.who')"),
    ("why", pa.string(), "json_extract(e.payload, '$.why')"),
    ("limb", pa.string(), "json_extract(e.payload, '$.limb')"),
    ("shark_card", pa.string(), "json_extract(e.payload, '$.card')"),
    ("hunger_left", pa.int64(), "json_extract(e.payload, '$.left')"),
    ("winner", pa.string(), "json_extract(e.payload, '$.winner')"),
    ("payload", pa.string(), "e.payload"),
)

#: swimmers: the read model's columns, then where the game stands.
_SWIMMERS: tuple[tuple[str, Any, str], ...] = (
    *((name, _TYPES[sql], f"r.{quote(name)}") for name, sql in readmodel.COLUMNS.items()),
    ("revision", pa.string(), "COALESCE(d.why, 'live')"),
    ("stored", pa.int64(), "g.rowid"),
)


@attrs.frozen
class ParquetExport:
    """What :func:`write_parquet` wrote: the folder and the rows of each table."""

    folder: Path
    games: int
    events: int
    swimmers: int

    def to_json(self) -> dict[str, Any]:
        return {"folder": str(self.folder), "games": self.games, "events": self.events,
                "swimmers": self.swimmers}


def _schema(columns: Sequence[tuple[str, Any, str]]) -> Any:
    return pa.schema([(name, kind) for name, kind, _ in columns] + [("bucket", pa.string())])


def _tag(tags: dict[str, Any], name: str) -> str | None:
    for key, value in tags.items():
        if key.casefold() == name.casefold() and isinstance(value, str):
            return value
    return None


def _games_row(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """A games row with the Event and Date tags out of its JSON tags."""
    try:
        tags = json.loads(row[_TAGS_AT] or "{}")
    except ValueError:
        tags = {}
    if not isinstance(tags, dict):
        tags = {}
    date = _tag(tags, "Date")
    out = list(row)
    out[_EVENT_AT : _EVENT_AT + 3] = [_tag(tags, "Event"), readmodel.iso_date(date), date]
    return tuple(out)


def _batches(
    conn: sqlite3.Connection,
    sql: str,
    columns: Sequence[tuple[str, Any, str]],
    batch_rows: int,
    counted: list[int],
    fix: Any = None,
) -> Iterator[Any]:
    """Record batches of ``sql``'s rows (the columns, then the bucket), ``batch_rows`` at a time."""
    schema = _schema(columns)
    cursor = conn.execute(sql)
    while True:
        rows = cursor.fetchmany(batch_rows)
        if not rows:
            return
        if fix is not None:
            rows = [fix(r) for r in rows]
        counted[0] += len(rows)
        arrays = [pa.array(col, type=field.type)
                  for col, field in zip(zip(*rows, strict=True), schema, strict=True)]
        yield pa.RecordBatch.from_arrays(arrays, schema=schema)


def _select(columns: Sequence[tuple[str, Any, str]]) -> str:
    return ", ".join(sql for _, _, sql in columns)


def write_parquet(
    store: GameStore,
    folder: str | Path,
    *,
    games: Sequence[str] | None = None,
    status: str | None = None,
    player: str | None = None,
    rows_per_file: int = 1_000_000,
    batch_rows: int = 50_000,
) -> ParquetExport:
    """Write the store's games, events and read-model rows as Parquet to ``folder``.

    ``games``: the ids to write (None: every stored game, superseded and
    retracted ones too, marked in ``revision``); ``status`` and ``player`` keep
    those games of them with that status / that swimmer or player (ignoring
    case), as ``getbit games`` does. ``folder`` must not exist or be empty: the
    files are written beside it and moved in when complete, so a failed export
    leaves nothing half written. InputError for a bad folder or status.
    """
    target = Path(folder)
    if status is not None and status not in readmodel.STATUSES:
        raise InputError(f"status must be one of {', '.join(readmodel.STATUSES)}, not {status!r}")
    if rows_per_file < 1 or batch_rows < 1:
        raise ValueError("rows_per_file and batch_rows must be at least 1")
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise InputError(f"{target}: exists and is not an empty folder; give a new one")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    except OSError as exc:
        raise InputError(f"{target}: cannot write: {exc.strerror or exc}") from None
    try:
        # pyarrow pulls the batches in a thread of its own: a connection of our own,
        # to read only, used by one thread at a time
        conn = sqlite3.connect(f"{store.path.absolute().as_uri()}?mode=ro", uri=True,
                               isolation_level=None, check_same_thread=False)
        try:
            conn.execute("BEGIN")  # one snapshot of all three tables
            where = _selection(conn, games, status, player)
            counts = _write_all(conn, work, where, rows_per_file, batch_rows)
        finally:
            conn.close()
        (work / "export.json").write_text(
            json.dumps({"format": FORMAT, "tables": dict(zip(TABLES, counts, strict=True))},
                       indent=2) + "\n",
            encoding="utf-8",
        )
        if target.exists():
            target.rmdir()
        os.replace(work, target)
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{store.path}: could not read the games to export: {exc}") from None
    except OSError as exc:
        raise InputError(f"{target}: cannot write: {exc.strerror or exc}") from None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return ParquetExport(target, *counts)


def _selection(
    conn: sqlite3.Connection, games: Sequence[str] | None, status: str | None,
    player: str | None,
) -> str:
    """An SQL condition on a game id column ``{id}`` keeping the games asked for
    (kept in a temporary table when there is a choice)."""
    where, params = [], []
    if status is not None:
        where.append("status = ?")
        params.append(status)
    if player is not None:
        where.append(f"id IN (SELECT game_id FROM {readmodel.TABLE} "
                     "WHERE player_key = ? OR swimmer = ?)")
        params.extend([player.casefold(), player])
    if games is None and not where:
        return "1"
    conn.execute("CREATE TEMP TABLE parquet_selection (id TEXT PRIMARY KEY)")
    keep = " AND ".join(where) or "1"
    if games is None:
        conn.execute(f"INSERT INTO temp.parquet_selection SELECT id FROM games WHERE {keep}",
                     params)
    else:
        conn.executemany("INSERT OR IGNORE INTO temp.parquet_selection VALUES (?)",
                         [(g,) for g in games])
        conn.execute("DELETE FROM temp.parquet_selection WHERE id NOT IN "
                     f"(SELECT id FROM games WHERE {keep})", params)
    return "{id} IN (SELECT id FROM temp.parquet_selection)"


def _write_all(
    conn: sqlite3.Connection, work: Path, where: str, rows_per_file: int, batch_rows: int
) -> list[int]:
    history = f"LEFT JOIN ({DROPPED}) d ON d.game_id = {{id}}"
    queries = {
        "games": (
            _GAMES,
            (f"SELECT {_select(_GAMES)}, substr(g.id, 1, 1) FROM games g "
            f"{history.format(id='g.id')} WHERE {where.format(id='g.id')} ORDER BY g.rowid"),
            _games_row,
        ),
        "events": (
            _EVENTS,
            (f"SELECT {_select(_EVENTS)}, substr(e.game_id, 1, 1) FROM events e "
            f"WHERE {where.format(id='e.game_id')} ORDER BY e.rowid"),
            None,
        ),
        "swimmers": (
            _SWIMMERS,
            (f"SELECT {_select(_SWIMMERS)}, substr(r.game_id, 1, 1) FROM {readmodel.TABLE} r "
            f"JOIN games g ON g.id = r.game_id {history.format(id='r.game_id')} "
            f"WHERE {where.format(id='r.game_id')} ORDER BY r.rowid"),
            None,
        ),
    }
    counts = []
    for table in TABLES:
        columns, sql, fix = queries[table]
        counted = [0]
        ds.write_dataset(
            _batches(conn, sql, columns, batch_rows, counted, fix),
            work / table,
            schema=_schema(columns),
            format="parquet",
            partitioning=ds.partitioning(_BUCKET, flavor="hive"),
            basename_template="part-{i}.parquet",
            max_rows_per_file=rows_per_file,
            max_rows_per_group=min(rows_per_file, 128 * 1024),
            existing_data_behavior="overwrite_or_ignore",
        )
        if not (work / table).exists():  # no rows: an empty file, so readers see the columns
            empty = _schema(columns).remove(len(columns))
            (work / table / "bucket=0").mkdir(parents=True)
            pq.write_table(empty.empty_table(), work / table / "bucket=0" / "part-0.parquet")
        counts.append(counted[0])
    return counts
