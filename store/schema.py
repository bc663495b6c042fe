"""The store's tables: their names, keys and guards, the read model's tables and
views, and the SQL that adds to the totals (``migrations`` makes them)."""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Sequence
from typing import Any

import sqlite_utils

from store import readmodel

__all__ = [
    "APPEND_ONLY",
    "CHAIN_COLUMNS",
    "DROPPED",
    "FACT_TABLES",
    "GAME",
    "GAME_COLUMNS",
    "GUARDS",
    "HISTORY_COLUMNS",
    "HISTORY_GUARDS",
    "LEGACY_GUARDS",
    "RECORD",
    "ROW_SLOTS",
    "SOURCES_GUARDS",
    "TAG_DATE",
    "UNNUMBERED_GUARDS",
    "compress",
    "create_read_model",
    "create_views",
    "live",
    "quote",
    "read_model_signature",
    "rewrite_guard",
    "row_ids",
    "source_sql",
    "table_columns",
    "tag_value",
    "unpack",
    "upsert",
]


def live(column: str) -> str:
    """An SQL condition: the game in ``column`` is neither superseded nor retracted."""
    return f"{column} NOT IN (SELECT game_id FROM ({DROPPED}))"


#: The append-only tables as ``m001_core_tables`` made them.
APPEND_ONLY = ("games", "events", "violations")
#: The tables that hold the games' facts since ``m006_compact``: none can be rewritten.
FACT_TABLES = ("games", "event_games", "event_runs", "event_kinds", "violations")

#: The columns of ``games`` a game's chain value covers, in order (all but the chain's own).
GAME_COLUMNS = (
    "id", "hash", "source", "source_line", "source_game", "tags", "variant", "swimmers",
    "status", "winner", "rounds", "events", "violations", "imported_at",
)
#: The column of ``games`` saying which game a stored game is of (``m007_game``):
#: ``get-bit`` or ``bite-me`` (``stored.GAMES``). Its chain value covers it where it
#: is not ``get-bit`` (``stored.chain_row``), so a migrated store's chain stands.
GAME = "game"
#: The column of ``games`` holding the hash of a game's record text and violation rows
#: (``stored.record_digest``, ``m010_record``), which its chain value covers; NULL for
#: a game stored before, whose chain value stands as it was.
RECORD = "record"
#: The chain's columns of ``games``: the previous game's chain value, and this game's.
CHAIN_COLUMNS = ("prev", "chain")

#: The triggers that keep the append-only tables so (``getbit check`` looks for them).
GUARDS = tuple(
    f"{table}_no_{what}" for table in FACT_TABLES for what in ("update", "delete", "replace")
)
#: The same in a store from before ``m006_compact`` (events one row an event, in a table).
LEGACY_GUARDS = tuple(
    f"{table}_no_{what}" for table in APPEND_ONLY for what in ("update", "delete", "replace")
)
#: The columns of ``history`` a fact's chain value covers, in order.
HISTORY_COLUMNS = ("kind", "game", "target", "reason", "at")
#: The same for ``history`` (stores from before ``m004_history`` have no such table).
HISTORY_GUARDS = tuple(f"history_no_{what}" for what in ("update", "delete", "replace"))
#: the triggers that keep the record texts (``sources``) as imported
SOURCES_GUARDS = tuple(f"sources_no_{what}" for what in ("update", "delete", "replace"))

#: The games statistics leave out for the history (a game superseded by a
#: revision, or retracted), with why: ``superseded`` or ``retracted``.
DROPPED = (
    "SELECT target AS game_id, 'superseded' AS why FROM history WHERE kind = 'supersedes' "
    "UNION ALL SELECT game, 'retracted' FROM history WHERE kind = 'retracts'"
)

#: A stored row may be neither rewritten nor removed. UPDATE and DELETE triggers
#: refuse the plain statements; REPLACE (``INSERT OR REPLACE``, ``REPLACE INTO``)
#: deletes the row it collides with without firing a DELETE trigger, and an
#: UPSERT's update is reached only past the collision, so a row that would
#: collide with a stored one on any unique key (the rowid included) is refused
#: before it is inserted.
_UNIQUE_KEYS = {
    "games": "id = NEW.id OR rowid = NEW.rowid",  # the hash is unique by the writer: m009
    "events": "(game_id = NEW.game_id AND seq = NEW.seq) OR rowid = NEW.rowid",
    "violations": "rowid = NEW.rowid",
    "history": "rowid = NEW.rowid",
    "sources": "game = NEW.game",  # keyed by the game's number, its rowid (m011)
    "event_games": "game = NEW.game",  # likewise (m011)
    "event_runs": "game = NEW.game AND seq = NEW.seq",  # WITHOUT ROWID: the key is all
    "event_kinds": "kind = NEW.kind",
}

#: ``event_games_no_replace`` and ``sources_no_replace`` as ``m005_sources`` and
#: ``m006_compact`` made them, with a term of the game's id, which ``m011_by_number``
#: took out (``getbit check``, which migrates nothing, knows them in a store from before).
UNNUMBERED_GUARDS = {
    "sources": "game_id = NEW.game_id OR rowid = NEW.rowid",
    "event_games": "game = NEW.game OR game_id = NEW.game_id",
}


def rewrite_guard(table: str, keys: str | None = None) -> tuple[str, str]:
    """The trigger that refuses a row colliding with a stored one of ``table`` (on
    ``keys``, an SQL condition; by default its keys now): its name and the SQL that
    creates it."""
    name = f"{table}_no_replace"
    return name, (
        f"CREATE TRIGGER {name} BEFORE INSERT ON {table} "
        f"WHEN EXISTS (SELECT 1 FROM {table} WHERE {keys or _UNIQUE_KEYS[table]}) "
        f"BEGIN SELECT RAISE(ABORT, '{table} are append-only: a stored row cannot be "
        "replaced'); END"
    )


def create_read_model(db: sqlite_utils.Database) -> None:
    """(Re)create ``game_swimmers`` from ``readmodel.COLUMNS`` and the views over it."""
    for view in ("player_results", "counted_game_swimmers"):
        db.execute(f"DROP VIEW IF EXISTS {view}")
    db.execute(f"DROP TABLE IF EXISTS {readmodel.TABLE}")
    db.table(readmodel.TABLE).create(  # no key: a game's rows are its rowids (row_ids)
        {name: _PY_TYPES[sql] for name, sql in readmodel.COLUMNS.items()}
    )
    db.table(readmodel.TABLE).create_index(["player_key"])
    for name, (columns, pk) in readmodel.TOTALS.items():
        db.execute(f"DROP TABLE IF EXISTS {name}")
        db.table(name).create({c: _PY_TYPES[t] for c, t in columns.items()}, pk=pk)
    db.execute("DELETE FROM meta WHERE key = 'standings'")
    create_views(db)
    db.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('read_model', ?)",
        [read_model_signature()],
    )


#: The rowids a game's read-model rows may take: game n's are n * ROW_SLOTS onwards.
ROW_SLOTS = 16


def row_ids(game: int, rows: Sequence[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """A game's read-model rows (``readmodel.row_tuples``) as ``game_swimmers`` keeps
    them: each with its rowid first, in the range of the game's number (its games
    rowid). The rows come in the order of the games, so a new game's go at the end
    of the table: under a key of game ids, each went on a random page of an index
    that at a million games is 134 MB, and importing 20,000 more took 14.0 s
    against 12.7 s (docs/scale.md). A game's rows are found by their range."""
    if len(rows) > ROW_SLOTS:  # never: at most six swimmers and the Shark
        raise ValueError(f"game {game}: {len(rows)} read-model rows, more than {ROW_SLOTS}")
    base = game * ROW_SLOTS
    return [(base + k, *row) for k, row in enumerate(rows)]


def create_views(db: sqlite_utils.Database) -> None:
    """(Re)create the views over ``game_swimmers``: the rows statistics count
    (invalid, superseded and retracted games left out, and said so by reports)."""
    for view in ("player_results", "counted_game_swimmers"):
        db.execute(f"DROP VIEW IF EXISTS {view}")
    db.execute(
        f"CREATE VIEW counted_game_swimmers AS SELECT * FROM {readmodel.TABLE} "
        f"WHERE status != 'invalid' AND {live('game_id')}"
    )
    db.execute(
        """CREATE VIEW player_results AS
        SELECT player_key, MIN(name) AS name, COUNT(DISTINCT game_id) AS games,
        COUNT(DISTINCT CASE WHEN won = 1 THEN game_id END) AS wins,
        COUNT(DISTINCT CASE WHEN status = 'valid' THEN game_id END) AS finished
        FROM counted_game_swimmers WHERE role != 'automaton'
        GROUP BY player_key"""
    )


_PY_TYPES: dict[str, type] = {"TEXT": str, "INTEGER": int, "REAL": float, "BLOB": bytes}


def read_model_signature() -> str:
    summaries = {name: list(columns) for name, (columns, _) in readmodel.TOTALS.items()}
    return json.dumps([readmodel.VERSION, list(readmodel.COLUMNS.items()), summaries])


def upsert(table: str) -> str:
    """Add a row of counts to ``table``'s totals (``player_names`` keeps the first order key)."""
    columns, pk = readmodel.TOTALS[table]
    names = ", ".join(quote(c) for c in columns)
    marks = ", ".join("?" for _ in columns)
    adds = [
        f"{quote(c)} = MIN({quote(c)}, excluded.{quote(c)})" if c == "first"
        else f"{quote(c)} = {quote(c)} + excluded.{quote(c)}"
        for c in columns if c not in pk
    ]
    return (f"INSERT INTO {table} ({names}) VALUES ({marks}) "
            f"ON CONFLICT ({', '.join(pk)}) DO UPDATE SET {', '.join(adds)}")


def quote(name: str) -> str:
    """An SQL identifier, quoted."""
    return '"' + name.replace('"', '""') + '"'


def compress(text: bytes) -> tuple[bytes, int]:
    """A record text as ``sources`` keeps it: zlib's when shorter (as sqlar does),
    and its length."""
    packed = zlib.compress(text, 6)
    return (packed if len(packed) < len(text) else text), len(text)


def unpack(text: bytes, size: int | None) -> bytes | None:
    """A record text as imported, from ``sources``' ``text`` and ``size`` (None: a store
    from before, its texts kept as imported); None when it does not unpack to ``size``
    (damaged)."""
    if size is None or len(text) == size:
        return text
    try:
        unpacked = zlib.decompress(text)
    except zlib.error:
        return None
    return unpacked if len(unpacked) == size else None


def tag_value(name: str) -> str:
    """SQL for a stored game's tag ``name`` (one of the store's own names, never a user's
    text): NULL for tags that are not JSON, a damaged row ``getbit check`` names, rather
    than an error."""
    return f"(CASE WHEN json_valid(tags) THEN json_extract(tags, '$.{name}') END)"


#: A stored game's Date tag, as the index ``m008_line_date`` keeps it (no index keeps
#: the others).
TAG_DATE = tag_value("Date")


def table_columns(conn: sqlite3.Connection, table: str) -> set[str]:
    """The names of ``table``'s columns (none: no such table); ``table`` is one of the
    store's own names, never a user's text."""
    return {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}


def source_sql(conn: sqlite3.Connection) -> str | None:
    """SQL for a game's ``sources`` row (its text and size, NULL where a store from
    before ``m006_compact`` keeps none) given its id, in the store's layout: by its
    number and id since ``m011_by_number``, by its id before. None: no such table."""
    columns = table_columns(conn, "sources")
    if not columns:
        return None
    size = "s.size" if "size" in columns else "NULL"
    if "game" in columns:
        return (f"SELECT s.text, {size} FROM games g JOIN sources s ON s.game = g.rowid "
                "AND s.game_id = g.id WHERE g.id = ?")
    return f"SELECT s.text, {size} FROM sources s WHERE s.game_id = ? ORDER BY s.rowid"
