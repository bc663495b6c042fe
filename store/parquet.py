"""A store's games as Parquet for DuckDB, Spark and the like: ``write_parquet``.

Three tables, each a folder of hive partitions (``bucket=0`` to ``bucket=15``: the
first hex digit of the game id, as a number) holding files of at most
``rows_per_file`` rows:

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
read transaction (one snapshot), in the order the games were stored (a game's
events read back from its runs by ``eventlog``, as the store reads them, not
sorted by SQL); memory is bounded by a batch and the rows held for the next row
groups (``_GROUP``), not by the store. ``docs/scale.md`` has the schema and the SQL.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from getbit_events.errors import InputError, StoreError
from store import eventlog, readmodel
from store.opening import add_functions
from store.queries import PLAYED
from store.schema import DROPPED, quote
from store.store import GameStore
from store.stored import GET_BIT

__all__ = ["FORMAT", "TABLES", "ParquetExport", "write_parquet"]

#: The layout's version, written to ``export.json``; bumped when a column changes
#: (2: ``bucket`` a number, 0 to 15, where it was the hex digit as text).
FORMAT = 2
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

#: The payload fields that have typed columns in ``events``: column, Arrow type, field,
#: the event types whose payload has it (NULL on the others).
_TYPED: tuple[tuple[str, Any, str, frozenset[str]], ...] = (
    ("who", pa.string(), "who", frozenset({"card-chosen", "swimmer-moved", "swimmer-bitten",
                                           "swimmer-devoured", "cards-taken-back"})),
    ("why", pa.string(), "why", frozenset({"swimmer-moved", "swimmer-devoured", "game-ended"})),
    ("limb", pa.string(), "limb", frozenset({"swimmer-bitten"})),
    ("shark_card", pa.string(), "card", frozenset({"shark-card-played"})),
    ("hunger_left", pa.int64(), "left", frozenset({"hunger-lost"})),
    ("winner", pa.string(), "winner", frozenset({"game-ended"})),
)
_WITH_FIELDS = frozenset().union(*(types for *_, types in _TYPED))
_NO_FIELDS = (None,) * len(_TYPED)
_CACHE = 50_000  # payload texts whose typed fields are kept, at most

#: events: the envelope, its common fields typed, the payload as stored.
_EVENTS: tuple[tuple[str, Any], ...] = (
    ("game_id", pa.string()),
    ("seq", pa.int64()),
    ("type", pa.string()),
    ("version", pa.int64()),
    ("round", pa.int64()),
    *((column, kind) for column, kind, _, _ in _TYPED),
    ("payload", pa.string()),
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


_HEX = "0123456789abcdef"
#: SQL for a game's bucket from its id column ``{id}``: as ``_bucket``.
_BUCKET = f"instr('{_HEX}', lower(substr({{id}}, 1, 1))) - 1"


def _bucket(game_id: str) -> int:
    """A game's bucket: the first hex digit of its id, as a number (0 to 15)."""
    return _HEX.find(game_id[:1].lower())


def _typed(tag: Any, payload: Any) -> tuple[Any, ...]:
    """The typed columns of an event (``_TYPED``): its payload's fields, each where its
    type has it and its value is of the column's type (NULL otherwise)."""
    try:
        data = json.loads(payload)
    except (ValueError, TypeError):
        return _NO_FIELDS
    if not isinstance(data, dict):
        return _NO_FIELDS
    out = []
    for _, kind, field, types in _TYPED:
        value = data.get(field) if tag in types else None
        fits = isinstance(value, str) if kind == pa.string() else type(value) is int
        out.append(value if fits else None)
    return tuple(out)


class _Fields:
    """``_typed`` of each event, a payload text parsed once (most are seen many times:
    a swimmer choosing a card, moving)."""

    def __init__(self) -> None:
        self.known: dict[tuple[Any, Any], tuple[Any, ...]] = {}

    def __call__(self, tag: Any, payload: Any) -> tuple[Any, ...]:
        if tag not in _WITH_FIELDS:
            return _NO_FIELDS
        key = (tag, payload)
        found = self.known.get(key)
        if found is None:
            if len(self.known) >= _CACHE:
                self.known.clear()
            found = self.known[key] = _typed(tag, payload)
        return found


def _event_rows(conn: sqlite3.Connection, where: str) -> Iterator[tuple[Any, ...]]:
    """The events of the games ``where`` keeps (an SQL condition on ``g.id``), as rows
    of ``_EVENTS`` and the bucket, in the order stored; StoreError naming a game whose
    events cannot be read."""
    kinds: eventlog.Kinds | None = None
    if eventlog.compact_tables(conn):
        kinds = eventlog.Kinds()
        kinds.load(conn)
    fields = _Fields()
    known = fields.known  # looked up here first: a call an event is a tenth of an export
    # "+": the selection is a test on each game in turn, not the order the rows come in
    # (SQLite would then sort every event of them)
    for game_id, decoded in eventlog.chosen_rows(conn, kinds, where.format(id="+g.id")):
        if decoded.unread:
            raise StoreError(f"game {game_id}: {decoded.unread[0]} ('getbit check' says more)")
        bucket = _bucket(game_id)
        for seq, tag, version, round_, payload in decoded.rows:
            typed = known.get((tag, payload)) or fields(tag, payload)
            yield (game_id, seq, tag, version, round_, *typed, payload, bucket)


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
        self.pending: dict[int, list[Any]] = {}
        self.held: dict[int, int] = {}
        self.files: dict[int, list[Any]] = {}  # bucket -> [writer, rows in it, files so far]

    def add(self, batch: Any, buckets: Sequence[int]) -> None:
        # each bucket's rows picked out by Arrow, in the order they come (not a loop over
        # the rows here: a fifth of an export's time)
        column = pa.array(buckets, type=pa.int8())
        for bucket in pc.unique(column).to_pylist():
            part = batch.filter(pc.equal(column, bucket))
            rows = part.num_rows
            if rows == len(buckets):
                part = batch
            self.pending.setdefault(bucket, []).append(part)
            self.held[bucket] = self.held.get(bucket, 0) + rows
            if self.held[bucket] >= self.group:
                self._flush(bucket)
        while sum(self.held.values()) > 4 * self.group:  # memory: the fullest goes first
            self._flush(max(self.held, key=self.held.__getitem__))

    def _flush(self, bucket: int) -> None:
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
    rows: Iterable[tuple[Any, ...]], out: _Buckets, batch_rows: int, fix: Any = None
) -> int:
    """``rows`` (the columns, then the bucket) into ``out``, ``batch_rows`` at a time;
    how many there were."""
    schema = out.schema
    given = iter(rows)
    count = 0
    while True:
        batch = list(itertools.islice(given, batch_rows))
        if not batch:
            out.close()
            return count
        if fix is not None:
            batch = [fix(r) for r in batch]
        count += len(batch)
        *values, buckets = zip(*batch, strict=True)
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
    place = target.resolve()  # "." too: its own name, beside it in its parent
    try:
        place.parent.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=f".{place.name}.", dir=place.parent))
    except OSError as exc:
        raise InputError(f"{target}: cannot write: {exc.strerror or exc}") from None
    try:
        # a connection of our own, to read only: the store's may be in a write
        conn = sqlite3.connect(f"{store.path.absolute().as_uri()}?mode=ro", uri=True,
                               isolation_level=None)
        add_functions(conn)
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
        _move_in(work, place)
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{store.path}: could not read the games to export: {exc}") from None
    except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:  # a value of a kind getbit never
        # writes in a column (a text for a number): changed since it was stored
        raise StoreError(
            f"{store.path}: a stored value cannot be exported, it is not of its column's "
            f"kind ({' '.join(str(exc).split())[:200]}); run getbit check"
        ) from None
    except OSError as exc:
        raise InputError(f"{target}: cannot write: {exc.strerror or exc}") from None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return ParquetExport(target, *counts)


def _move_in(work: Path, place: Path) -> None:
    """The finished files moved from ``work`` into the folder ``place``: a folder of the
    user's kept as it is (its mode, and the working folder of whoever is in it), a new
    one made as any new folder; ``export.json`` last. Nothing is left of them when a
    move fails."""
    made = not place.exists()
    place.mkdir(exist_ok=True)
    moved: list[Path] = []
    try:
        for name in (*TABLES, "export.json"):
            os.replace(work / name, place / name)
            moved.append(place / name)
    except OSError:
        for path in moved:
            if path.is_dir():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)
        if made:
            place.rmdir()
        raise


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
        where.append(f"id IN ({PLAYED})")
        params.extend([player.casefold(), player.casefold()])
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
    rows: dict[str, tuple[Sequence[tuple[Any, ...]], Any, Any]] = {  # columns, rows, fix
        "games": (
            _GAMES,
            lambda: conn.execute(
                f"SELECT {_select(_GAMES)}, {_BUCKET.format(id='g.id')} FROM games g "
                f"{history.format(id='g.id')} WHERE {where.format(id='+g.id')} ORDER BY g.rowid"
            ),
            _games_row,
        ),
        "events": (_EVENTS, lambda: _event_rows(conn, where), None),
        "swimmers": (
            _SWIMMERS,
            lambda: conn.execute(
                f"SELECT {_select(_SWIMMERS)}, {_BUCKET.format(id='r.game_id')} "
                f"FROM {readmodel.TABLE} r JOIN games g ON g.id = r.game_id "
                f"{history.format(id='r.game_id')} WHERE {where.format(id='r.game_id')} "
                "ORDER BY r.rowid"
            ),
            None,
        ),
    }
    counts = []
    for table in TABLES:
        columns, found, fix = rows[table]  # the rows read only now, a table at a time
        schema = pa.schema([(column[0], column[1]) for column in columns])
        out = _Buckets(work / table, schema, rows_per_file, min(rows_per_file, _GROUP))
        counts.append(_copy(found(), out, batch_rows, fix))
    return counts
