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
read transaction (one snapshot); memory is bounded by a batch and the rows
held for the next row groups (``_GROUP``), not by the store. ``docs/scale.md``
has the schema and the SQL.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
import pyarrow as pa
import pyarrow.parquet as pq

from getbit_events.errors import InputError, StoreError
from store import readmodel
from store.schema import DROPPED, quote
from store.store import GameStore
from store.stored import GET_BIT

__all__ = ["FORMAT", "TABLES", "ParquetExport", "write_parquet"]

#: The layout's version, written to ``export.json``; bumped when a column changes.
FORMAT = 1
TABLES: tuple[str, ...] = ("games", "events", "swimmers")

_TYPES = {"TEXT": pa.string(), "INTEGER": pa.int64(), "REAL": pa.float64()}
#: The most rows of a row group (the fewest: a quarter of it); up to 4 of them are
#: held in memory in all (``_Buckets``).
_GROUP = 64 * 1024

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

def _field(name: str, *types: str) -> str:
    """SQL for a payload field of the events of ``types`` (NULL on others: the JSON
    is parsed only where the field is)."""
    kinds = ", ".join(f"'{t}'" for t in types)
    return f"CASE WHEN e.type IN ({kinds}) THEN json_extract(e.payload, '$.{name}') END"


#: events: the envelope, the payload, and its common fields typed.
_EVENTS: tuple[tuple[str, Any, str], ...] = (
    ("game_id", pa.string(), "e.game_id"),
    ("seq", pa.int64(), "e.seq"),
    ("type", pa.string(), "e.type"),
    ("version", pa.int64(), "e.version"),
    ("round", pa.int64(), "e.round"),
    ("who", pa.string(), _field("who", "card-chosen", "swimmer-moved", "swimmer-bitten",
                                "swimmer-devoured", "cards-taken-back")),
    ("why", pa.string(), _field("why", "swimmer-moved", "swimmer-devoured", "game-ended")),
    ("limb", pa.string(), _field("limb", "swimmer-bitten")),
    ("shark_card", pa.string(), _field("card", "shark-card-played")),
    ("hunger_left", pa.int64(), _field("left", "hunger-lost")),
    ("winner", pa.string(), _field("winner", "game-ended")),
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


class _Buckets:
    """One table's files: rows kept per bucket until a row group is full, then
    written; a bucket's file closed at ``rows_per_file`` rows and the next begun.
    Memory: at most ``4 * group`` rows held in all (the fullest bucket is written
    first), so row groups are of ``group / 4`` to ``group`` rows."""

    def __init__(self, folder: Path, schema: Any, rows_per_file: int, group: int) -> None:
        self.folder, self.schema = folder, schema
        self.rows_per_file, self.group = rows_per_file, group
        self.pending: dict[str, list[Any]] = {}
        self.held: dict[str, int] = {}
        self.files: dict[str, list[Any]] = {}  # bucket -> [writer, rows in it, files so far]

    def add(self, batch: Any, buckets: Sequence[str]) -> None:
        where: dict[str, list[int]] = {}
        for i, bucket in enumerate(buckets):
            where.setdefault(bucket, []).append(i)
        for bucket, rows in where.items():
            part = batch if len(rows) == len(buckets) else batch.take(pa.array(rows))
            self.pending.setdefault(bucket, []).append(part)
            self.held[bucket] = self.held.get(bucket, 0) + len(rows)
            if self.held[bucket] >= self.group:
                self._flush(bucket)
        while sum(self.held.values()) > 4 * self.group:  # memory: the fullest goes first
            self._flush(max(self.held, key=self.held.__getitem__))

    def _flush(self, bucket: str) -> None:
        table = pa.Table.from_batches(self.pending.pop(bucket), schema=self.schema)
        del self.held[bucket]
        while table.num_rows:
            file = self.files.get(bucket)
            if file is None:
                path = self.folder / f"bucket={bucket}" / "part-0.parquet"
                path.parent.mkdir(parents=True, exist_ok=True)
                file = self.files[bucket] = [pq.ParquetWriter(path, self.schema), 0, 1]
            elif file[1] >= self.rows_per_file:
                file[0].close()
                path = self.folder / f"bucket={bucket}" / f"part-{file[2]}.parquet"
                file[:] = [pq.ParquetWriter(path, self.schema), 0, file[2] + 1]
            room = self.rows_per_file - file[1]
            file[0].write_table(table.slice(0, room), row_group_size=self.group)
            file[1] += min(room, table.num_rows)
            table = table.slice(room)

    def close(self) -> None:
        for bucket in list(self.pending):
            self._flush(bucket)
        for writer, _, _ in self.files.values():
            writer.close()
        if not self.files:  # no rows: an empty file, so readers see the columns
            path = self.folder / "bucket=0" / "part-0.parquet"
            path.parent.mkdir(parents=True)
            pq.write_table(self.schema.empty_table(), path)


def _copy(
    conn: sqlite3.Connection,
    sql: str,
    columns: Sequence[tuple[str, Any, str]],
    out: _Buckets,
    batch_rows: int,
    fix: Any = None,
) -> int:
    """``sql``'s rows (the columns, then the bucket) into ``out``, ``batch_rows`` at a
    time; how many there were."""
    schema = out.schema
    cursor = conn.execute(sql)
    count = 0
    while True:
        rows = cursor.fetchmany(batch_rows)
        if not rows:
            out.close()
            return count
        if fix is not None:
            rows = [fix(r) for r in rows]
        count += len(rows)
        *values, buckets = zip(*rows, strict=True)
        arrays = [pa.array(col, type=field.type)
                  for col, field in zip(values, schema, strict=True)]
        out.add(pa.RecordBatch.from_arrays(arrays, schema=schema), buckets)


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
    batch_rows: int = 20_000,
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
        # a connection of our own, to read only: the store's may be in a write
        conn = sqlite3.connect(f"{store.path.absolute().as_uri()}?mode=ro", uri=True,
                               isolation_level=None)
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
    where, params = ["game = ?"], [GET_BIT]  # the tables' columns are Get Bit!'s
    if status is not None:
        where.append("status = ?")
        params.append(status)
    if player is not None:
        where.append(f"id IN (SELECT game_id FROM {readmodel.TABLE} "
                     "WHERE player_key = ? OR swimmer = ?)")
        params.extend([player.casefold(), player])
    only_get_bit = conn.execute("SELECT 1 FROM games WHERE game != ? LIMIT 1", [GET_BIT])
    if games is None and len(where) == 1 and only_get_bit.fetchone() is None:
        return "1"  # every game: no table to keep them in
    conn.execute("CREATE TEMP TABLE parquet_selection (id TEXT PRIMARY KEY)")
    keep = " AND ".join(where)
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
            f"JOIN games g ON g.id = e.game_id "
            f"WHERE {where.format(id='e.game_id')} ORDER BY g.rowid, e.seq"),
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
        schema = pa.schema([(name, kind) for name, kind, _ in columns])
        out = _Buckets(work / table, schema, rows_per_file, min(rows_per_file, _GROUP))
        counts.append(_copy(conn, sql, columns, out, batch_rows, fix))
    return counts
