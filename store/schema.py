"""The store's tables: their migrations, the read model's tables and views, and
the SQL that adds to the totals."""

from __future__ import annotations

import itertools
import json
import operator
import sqlite3
import zlib
from collections.abc import Sequence
from typing import Any

import sqlite_utils

from store import eventlog, readmodel
from store.stored import GAMES, GENESIS, GET_BIT, chain_head, chain_value

__all__ = [
    "CHAIN_COLUMNS",
    "DROPPED",
    "FACT_TABLES",
    "GAME",
    "GAME_COLUMNS",
    "GUARDS",
    "HISTORY_COLUMNS",
    "HISTORY_GUARDS",
    "LEGACY_GUARDS",
    "MIGRATIONS",
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
    "tag_value",
    "unpack",
    "upsert",
]

def live(column: str) -> str:
    """An SQL condition: the game in ``column`` is neither superseded nor retracted."""
    return f"{column} NOT IN (SELECT game_id FROM ({DROPPED}))"


_APPEND_ONLY = ("games", "events", "violations")  # as m001 made them
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
    f"{table}_no_{what}" for table in _APPEND_ONLY for what in ("update", "delete", "replace")
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


MIGRATIONS = sqlite_utils.Migrations("getbit-events")


@MIGRATIONS()
def m001_core_tables(db: sqlite_utils.Database) -> None:
    """games, events and violations; events and violations can only grow."""
    db.table("games").create(
        {
            "id": str,
            "hash": str,
            "source": str,
            "source_line": int,
            "source_game": int,
            "tags": str,
            "variant": str,
            "swimmers": str,
            "status": str,
            "winner": str,
            "rounds": int,
            "events": int,
            "violations": int,
            "imported_at": str,
        },
        pk="id",
        not_null={"hash", "status", "imported_at"},
    )
    db.table("games").create_index(["hash"], unique=True)
    db.table("games").create_index(["status"])
    db.table("events").create(
        {
            "game_id": str,
            "seq": int,
            "type": str,
            "version": int,
            "round": int,
            "payload": str,
        },
        pk=("game_id", "seq"),
        foreign_keys=[("game_id", "games", "id")],
        not_null={"type", "version", "round", "payload"},
    )
    db.table("violations").create(
        {
            "game_id": str,
            "line": int,
            "column": int,
            "round": int,
            "code": str,
            "rule": str,
            "message": str,
        },
        foreign_keys=[("game_id", "games", "id")],
    )
    db.table("violations").create_index(["game_id"])
    for table in _APPEND_ONLY:
        _refuse_updates(db, table)
        db.execute(
            f"CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table} "
            f"BEGIN SELECT RAISE(ABORT, '{table} are append-only: DELETE is refused'); END"
        )


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


def _refuse_updates(db: sqlite_utils.Database, table: str) -> None:
    db.execute(
        f"CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table} "
        f"BEGIN SELECT RAISE(ABORT, '{table} are append-only: UPDATE is refused'); END"
    )


def _guard(db: sqlite_utils.Database, table: str, keys: str | None = None) -> None:
    """Refuse UPDATE, DELETE and REPLACE on ``table`` (``keys``: ``rewrite_guard``'s)."""
    _refuse_updates(db, table)
    db.execute(
        f"CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table} "
        f"BEGIN SELECT RAISE(ABORT, '{table} are append-only: DELETE is refused'); END"
    )
    db.execute(rewrite_guard(table, keys)[1])


@MIGRATIONS()
def m002_read_model(db: sqlite_utils.Database) -> None:
    """The read model table, its views and the record of which version built it."""
    db.table("meta").create({"key": str, "value": str}, pk="key")
    create_read_model(db)


@MIGRATIONS()
def m003_defences(db: sqlite_utils.Database) -> None:
    """REPLACE and UPSERT refused like UPDATE and DELETE; the games made a chain.

    Each ``games`` row holds the chain value of the game stored before it
    (``prev``) and its own (``chain``, see ``stored.chain_value``): a game row
    changed or removed breaks the chain. ``meta`` keeps its head (``chain``: the
    number of games and the last chain value), so removing the last is found too.
    The games already stored are chained here, in the order stored.
    """
    for table in _APPEND_ONLY:
        db.execute(rewrite_guard(table)[1])
    for column in CHAIN_COLUMNS:
        db.execute(f"ALTER TABLE games ADD COLUMN {column} TEXT")
    db.execute("DROP TRIGGER games_no_update")  # the store's own change, once
    prev, count = GENESIS, 0
    names = ", ".join(GAME_COLUMNS)
    for row in db.execute(f"SELECT rowid, {names} FROM games ORDER BY rowid").fetchall():
        value = chain_value(prev, row[1:])
        db.execute("UPDATE games SET prev = ?, chain = ? WHERE rowid = ?", [prev, value, row[0]])
        prev, count = value, count + 1
    _refuse_updates(db, "games")
    db.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('chain', ?)", [chain_head(count, prev)]
    )


@MIGRATIONS()
def m004_history(db: sqlite_utils.Database) -> None:
    """``history``: the revision facts (a game superseded by another, a game
    retracted), append-only like the games; ``games.swimmers`` indexed for the
    revision hint; the views leave out superseded and retracted games.

    A row: ``seq`` (its order), ``kind`` (``supersedes`` or ``retracts``),
    ``game`` (the new revision, or the game retracted), ``target`` (the game
    superseded; NULL for a retraction), ``reason`` (or NULL), ``at`` (UTC), and
    a chain like the games' (``prev``, ``chain`` over ``HISTORY_COLUMNS``; the
    head in ``meta``, key ``history``), so a fact removed is found.
    """
    db.execute(
        "CREATE TABLE history (seq INTEGER PRIMARY KEY, kind TEXT NOT NULL "
        "CHECK (kind IN ('supersedes', 'retracts')), game TEXT NOT NULL REFERENCES games(id), "
        "target TEXT REFERENCES games(id), reason TEXT, at TEXT NOT NULL, "
        "prev TEXT NOT NULL, chain TEXT NOT NULL, "
        "CHECK ((kind = 'supersedes') = (target IS NOT NULL)))"
    )
    db.execute("CREATE INDEX history_game ON history (game)")
    db.execute("CREATE INDEX history_target ON history (target)")
    db.execute("CREATE INDEX games_swimmers ON games (swimmers)")
    _refuse_updates(db, "history")
    db.execute(
        "CREATE TRIGGER history_no_delete BEFORE DELETE ON history "
        "BEGIN SELECT RAISE(ABORT, 'history are append-only: DELETE is refused'); END"
    )
    db.execute(rewrite_guard("history")[1])
    create_views(db)


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


@MIGRATIONS()
def m005_sources(db: sqlite_utils.Database) -> None:
    """``sources``: each game's record text as imported, byte for byte (its
    provenance, ``getbit show ID --source``), append-only like the games. Games
    stored before it, and games of over 512 KiB of text, have none."""
    db.execute(
        "CREATE TABLE sources (game_id TEXT PRIMARY KEY REFERENCES games(id), "
        "text BLOB NOT NULL)"
    )
    _refuse_updates(db, "sources")
    db.execute(
        "CREATE TRIGGER sources_no_delete BEFORE DELETE ON sources "
        "BEGIN SELECT RAISE(ABORT, 'sources are append-only: DELETE is refused'); END"
    )
    db.execute(rewrite_guard("sources", UNNUMBERED_GUARDS["sources"])[1])


@MIGRATIONS()
def m006_compact(db: sqlite_utils.Database) -> None:
    """Events kept compactly (``eventlog``), the view ``events`` over them; record
    texts compressed. A store a few times the size of its records, not 14 times.

    ``event_kinds`` (a type, a version, a payload's template), ``event_games``
    (a game's number and its texts, each once), ``event_runs`` (a round's events
    as one JSON array, keyed by the game's number and the first event's seq,
    WITHOUT ROWID): every one append-only. The events stored before are copied
    over (their payload texts kept byte for byte), then the table is dropped, its
    triggers with it: the migration's own change, once. ``sources.size`` is a
    text's length: a text shorter stored is zlib's (``sqlar_uncompress(text,
    size)`` in the sqlite3 shell); NULL, a text as imported.
    """
    conn = db.conn
    conn.execute(
        "CREATE TABLE event_kinds (kind INTEGER PRIMARY KEY, type TEXT, version INTEGER, "
        "template TEXT NOT NULL, strings INTEGER NOT NULL, raw INTEGER NOT NULL)"
    )
    conn.execute(
        "CREATE TABLE event_games (game INTEGER PRIMARY KEY, "
        "game_id TEXT NOT NULL UNIQUE, strings TEXT NOT NULL)"
    )
    conn.execute(
        "CREATE TABLE event_runs (game INTEGER NOT NULL REFERENCES event_games(game), "
        "seq INTEGER NOT NULL, round INTEGER, events TEXT NOT NULL, PRIMARY KEY (game, seq)) "
        "WITHOUT ROWID"
    )
    log = eventlog.Log()
    # a game's number is its games rowid, as GameStore.add gives it; events without
    # a game (getbit check says so) are numbered after every game
    (stray,) = conn.execute("SELECT COALESCE(MAX(rowid), 0) FROM games").fetchone()
    cursor = conn.execute(
        "SELECT g.rowid, e.game_id, e.seq, e.type, e.version, e.round, e.payload FROM events e "
        "LEFT JOIN games g ON g.id = e.game_id ORDER BY g.rowid, e.game_id, e.seq"
    )
    for (number, game_id), rows in itertools.groupby(cursor, key=operator.itemgetter(0, 1)):
        if number is None:
            stray += 1
            number = stray
        eventlog.encode(conn, log, number, game_id, (row[2:] for row in rows))
    for what in ("update", "delete", "replace"):
        conn.execute(f"DROP TRIGGER IF EXISTS events_no_{what}")
    conn.execute("DROP TABLE events")
    conn.execute(eventlog.view_sql())
    for table in ("event_kinds", "event_games", "event_runs"):
        _guard(db, table, UNNUMBERED_GUARDS.get(table))
    conn.execute("DROP TRIGGER sources_no_update")
    conn.execute("ALTER TABLE sources ADD COLUMN size INTEGER")
    for game_id, text in conn.execute("SELECT game_id, text FROM sources").fetchall():
        conn.execute(
            "UPDATE sources SET text = ?, size = ? WHERE game_id = ?",
            (*compress(bytes(text)), game_id),
        )
    _refuse_updates(db, "sources")


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


@MIGRATIONS()
def m007_game(db: sqlite_utils.Database) -> None:
    """``games.game``: which game a stored game is of, ``get-bit`` or ``bite-me``
    ("Come on! Bite me!", docs/biteme.md); every game stored before is Get Bit!'s.

    Adding the column rewrites no row, so the chain stands: a game's chain value
    covers ``game`` only where it is not ``get-bit`` (``stored.chain_row``).
    """
    games = ", ".join(f"'{g}'" for g in GAMES)
    db.execute(
        f"ALTER TABLE games ADD COLUMN {GAME} TEXT NOT NULL DEFAULT '{GET_BIT}' "
        f"CHECK ({GAME} IN ({games}))"
    )
    db.execute(f"CREATE INDEX games_game ON games ({GAME})")


def tag_value(name: str) -> str:
    """SQL for a stored game's tag ``name`` (one of the store's own names, never a user's
    text): NULL for tags that are not JSON, a damaged row ``getbit check`` names, rather
    than an error."""
    return f"(CASE WHEN json_valid(tags) THEN json_extract(tags, '$.{name}') END)"


#: A stored game's Date tag, as the index ``m008_line_date`` keeps it (no index keeps
#: the others).
TAG_DATE = tag_value("Date")


@MIGRATIONS()
def m008_line_date(db: sqlite_utils.Database) -> None:
    """An index on each game's starting line and Date tag: adding a game whose record
    names its Date looks for stored games of that line with that Date, or none
    (``revisions.lookalikes``, the revision hint). Through ``games_swimmers`` alone
    it read the tags of every stored game of the line, so an archive of many
    dated games of the same players took time growing with the square of their
    number. It takes the place of ``games_swimmers`` (m004), which its first
    column serves as well: one index more on every game stored cost an import
    of a million games 6%. Adds no row and changes none."""
    db.execute(f"CREATE INDEX games_line_date ON games (swimmers, {TAG_DATE})")
    db.execute("DROP INDEX IF EXISTS games_swimmers")


@MIGRATIONS()
def m009_no_hash_index(db: sqlite_utils.Database) -> None:
    """The index of games' hashes goes: a game already stored is found by its id, the
    start of its hash (``GameStore.add`` compares the hash of the game under that id,
    and under the longer ids a hash that starts like another's takes), so the
    index of ids serves both. The hash index was the largest of the indexes every
    new game lands on a random page of (64 hex digits a game): importing 20,000
    more games into a store of a million took 15.2 s with it, 13.6 s without
    (docs/scale.md). ``games_no_replace`` loses its hash term with it (nothing to
    replace on); ``getbit check`` says when two games have one hash. Adds no row
    and changes none."""
    db.execute("DROP INDEX IF EXISTS idx_games_hash")
    name, create = rewrite_guard("games")
    db.execute(f"DROP TRIGGER IF EXISTS {name}")
    db.execute(create)


@MIGRATIONS()
def m010_record(db: sqlite_utils.Database) -> None:
    """``games.record``: the hash of a game's record text as ``sources`` keeps it and of
    its violation rows, lines, columns and rulings too (``stored.record_digest``),
    which the game's chain value covers (``stored.chain_row``). The game's own hash
    covers its events and its violations' codes, rounds and messages only, so a
    record text or a violation's line changed behind the triggers went unseen by
    ``getbit check``. Games stored before keep NULL (their chain values stand):
    their texts are guarded by the triggers alone. Adds no row and changes none."""
    db.execute(f"ALTER TABLE games ADD COLUMN {RECORD} TEXT")


def source_sql(conn: sqlite3.Connection) -> str | None:
    """SQL for a game's ``sources`` row (its text and size, NULL where a store from
    before ``m006_compact`` keeps none) given its id, in the store's layout: by its
    number and id since ``m011_by_number``, by its id before. None: no such table."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(sources)")}
    if not columns:
        return None
    size = "s.size" if "size" in columns else "NULL"
    if "game" in columns:
        return (f"SELECT s.text, {size} FROM games g JOIN sources s ON s.game = g.rowid "
                "AND s.game_id = g.id WHERE g.id = ?")
    return f"SELECT s.text, {size} FROM sources s WHERE s.game_id = ? ORDER BY s.rowid"


@MIGRATIONS()
def m011_by_number(db: sqlite_utils.Database) -> None:
    """``sources`` and ``event_games`` keyed by the game's number (its games rowid, which
    ``game_swimmers`` and ``event_runs`` are keyed by already) and no longer by its id.

    Each had an index of the games' ids (``sources``' key, ``event_games``' UNIQUE),
    and every new game went on a random page of both: at a million games, the
    writer's CPU was 13-20% less without them (docs/scale.md). A game's text and
    events are found through its games row (its id is a key there), the number
    and the id both matched, so a row under another game's number is never
    taken for the game's own. The tables keep the id in a column, for anyone
    browsing the file.

    Both tables are made again (SQLite drops no UNIQUE constraint otherwise),
    their rows copied as they are, their guards with them (``event_games_no_replace``
    and ``sources_no_replace`` by the number alone), the view ``events`` made again
    over the new ``event_games``. A text or events stored without their game
    (``getbit check`` names them) are numbered -1, -2, ... so that no game stored
    later takes their number. GameStore runs the migrations with the foreign
    keys set aside (``event_runs`` names ``event_games``: SQLite's way of making
    a table again, lang_altertable.html); the rows copied are the rows there."""
    conn = db.conn
    number = "(SELECT g.rowid FROM games g WHERE g.id = t.game_id)"
    strays = conn.execute(
        f"SELECT t.game FROM event_games t WHERE {number} IS NOT t.game ORDER BY t.game"
    ).fetchall()
    conn.execute("DROP VIEW IF EXISTS events")
    conn.execute(
        "CREATE TABLE event_games_new (game INTEGER PRIMARY KEY, game_id TEXT NOT NULL, "
        "strings TEXT NOT NULL)"
    )
    conn.execute(
        "INSERT INTO event_games_new (game, game_id, strings) "
        "SELECT game, game_id, strings FROM event_games ORDER BY game"
    )
    conn.execute("DROP TABLE event_games")  # its index and triggers with it
    conn.execute("ALTER TABLE event_games_new RENAME TO event_games")
    if strays:  # the migration's own change, once: no game stored later takes their number
        conn.execute("DROP TRIGGER event_runs_no_update")
        for k, (old,) in enumerate(strays, 1):
            conn.execute("UPDATE event_games SET game = ? WHERE game = ?", (-k, old))
            conn.execute("UPDATE event_runs SET game = ? WHERE game = ?", (-k, old))
        _refuse_updates(db, "event_runs")
    _guard(db, "event_games")
    conn.execute(eventlog.view_sql())
    conn.execute(
        "CREATE TABLE sources_new (game INTEGER PRIMARY KEY, game_id TEXT NOT NULL "
        "REFERENCES games(id), text BLOB NOT NULL, size INTEGER)"
    )
    conn.execute(
        f"INSERT INTO sources_new (game, game_id, text, size) SELECT {number}, t.game_id, "
        f"t.text, t.size FROM sources t WHERE {number} IS NOT NULL ORDER BY 1"
    )
    homeless = conn.execute(
        f"SELECT game_id, text, size FROM sources t WHERE {number} IS NULL ORDER BY rowid"
    ).fetchall()
    conn.executemany(
        "INSERT INTO sources_new (game, game_id, text, size) VALUES (?, ?, ?, ?)",
        [(-k, *row) for k, row in enumerate(homeless, len(strays) + 1)],
    )
    conn.execute("DROP TABLE sources")
    conn.execute("ALTER TABLE sources_new RENAME TO sources")
    _guard(db, "sources")
