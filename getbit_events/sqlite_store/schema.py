"""The store's tables: their migrations, the read model's tables and views, and
the SQL that adds to the totals."""

from __future__ import annotations

import json

import sqlite_utils

from getbit_events import readmodel

__all__ = ["MIGRATIONS", "create_read_model", "quote", "read_model_signature", "upsert"]

_APPEND_ONLY = ("games", "events", "violations")

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
        for action in ("UPDATE", "DELETE"):
            db.execute(
                f"CREATE TRIGGER {table}_no_{action.lower()} BEFORE {action} ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{table} are append-only: "
                f"{action} is refused'); END"
            )


@MIGRATIONS()
def m002_read_model(db: sqlite_utils.Database) -> None:
    """The read model table, its views and the record of which version built it."""
    db.table("meta").create({"key": str, "value": str}, pk="key")
    create_read_model(db)


def create_read_model(db: sqlite_utils.Database) -> None:
    """(Re)create ``game_swimmers`` from ``readmodel.COLUMNS`` and the views over it."""
    for view in ("player_results", "counted_game_swimmers"):
        db.execute(f"DROP VIEW IF EXISTS {view}")
    db.execute(f"DROP TABLE IF EXISTS {readmodel.TABLE}")
    db.table(readmodel.TABLE).create(
        {name: _PY_TYPES[sql] for name, sql in readmodel.COLUMNS.items()}, pk=readmodel.KEY
    )
    db.table(readmodel.TABLE).create_index(["player_key"])
    for name, (columns, pk) in readmodel.TOTALS.items():
        db.execute(f"DROP TABLE IF EXISTS {name}")
        db.table(name).create({c: _PY_TYPES[t] for c, t in columns.items()}, pk=pk)
    db.execute("DELETE FROM meta WHERE key = 'standings'")
    # The rows statistics count: invalid games are left out (and said so by reports).
    db.create_view(
        "counted_game_swimmers",
        f"SELECT * FROM {readmodel.TABLE} WHERE status != 'invalid'",
    )
    db.create_view(
        "player_results",
        f"""SELECT player_key, MIN(name) AS name, COUNT(DISTINCT game_id) AS games,
        COUNT(DISTINCT CASE WHEN won = 1 THEN game_id END) AS wins,
        COUNT(DISTINCT CASE WHEN status = 'valid' THEN game_id END) AS finished
        FROM {readmodel.TABLE} WHERE status != 'invalid' AND role != 'automaton'
        GROUP BY player_key""",
    )
    db.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('read_model', ?)",
        [read_model_signature()],
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
