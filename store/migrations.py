"""The store's migrations: each change to its tables since the first, in order,
applied when a store is opened (``GameStore``, in one write, foreign keys set aside);
``getbit check`` knows what each left behind and migrates nothing."""

from __future__ import annotations

import itertools
import operator

import sqlite_utils

from store import eventlog
from store.schema import (
    APPEND_ONLY,
    CHAIN_COLUMNS,
    GAME,
    GAME_COLUMNS,
    RECORD,
    TAG_DATE,
    UNNUMBERED_GUARDS,
    compress,
    create_read_model,
    create_views,
    rewrite_guard,
)
from store.stored import GAMES, GENESIS, GET_BIT, chain_head, chain_value

__all__ = ["MIGRATIONS"]

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
    for table in APPEND_ONLY:
        _refuse_updates(db, table)
        _refuse_deletes(db, table)


def _refuse_updates(db: sqlite_utils.Database, table: str) -> None:
    db.execute(
        f"CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table} "
        f"BEGIN SELECT RAISE(ABORT, '{table} are append-only: UPDATE is refused'); END"
    )


def _refuse_deletes(db: sqlite_utils.Database, table: str) -> None:
    db.execute(
        f"CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table} "
        f"BEGIN SELECT RAISE(ABORT, '{table} are append-only: DELETE is refused'); END"
    )


def _guard(db: sqlite_utils.Database, table: str, keys: str | None = None) -> None:
    """Refuse UPDATE, DELETE and REPLACE on ``table`` (``keys``: ``rewrite_guard``'s)."""
    _refuse_updates(db, table)
    _refuse_deletes(db, table)
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
    for table in APPEND_ONLY:
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
    _guard(db, "history")
    create_views(db)


@MIGRATIONS()
def m005_sources(db: sqlite_utils.Database) -> None:
    """``sources``: each game's record text as imported, byte for byte (its
    provenance, ``getbit show ID --source``), append-only like the games. Games
    stored before it, and games of over 512 KiB of text, have none."""
    db.execute(
        "CREATE TABLE sources (game_id TEXT PRIMARY KEY REFERENCES games(id), "
        "text BLOB NOT NULL)"
    )
    _guard(db, "sources", UNNUMBERED_GUARDS["sources"])


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


@MIGRATIONS()
def m012_stored_events(db: sqlite_utils.Database) -> None:
    """The view ``events`` made again, over the events of the games stored only: each
    game's found by its number and its id, as the store reads them (``m011_by_number``).
    Before, it gave every row of ``event_games``, so the events left under the number of
    a game whose row was removed (behind the triggers) were listed under its id too, and
    twice over once that game was imported again. No table changes."""
    conn = db.conn
    conn.execute("DROP VIEW IF EXISTS events")
    conn.execute(eventlog.view_sql())
