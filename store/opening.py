"""Opening a store file: whether it is a getbit store, or may become one, is
decided before anything is written to it (not even the switch to WAL)."""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import sqlite_utils

from getbit_events.errors import StoreError
from store.schema import MIGRATIONS
from store.stored import check_file

__all__ = ["add_functions", "connect", "use_wal"]


def connect(path: Path, *, create: bool, readonly: bool, timeout: float) -> sqlite3.Connection:
    """A connection to the getbit store at ``path``; with ``create`` (and not
    ``readonly``), a missing or empty file becomes one.

    Anything else is a StoreError, and the file is left as it is: a missing or
    empty file when not creating, a file that is not SQLite, another program's
    database (ours has getbit's migrations), one written by a newer getbit.
    """
    create = create and not readonly
    if not path.exists():
        if not create:
            raise StoreError(f"no store at {path}: import games first, or give --db")
    elif not create and path.is_file() and path.stat().st_size == 0:
        raise StoreError(f"{path} is empty, not a getbit store: import games first")
    check_file(path)
    mode = "ro" if readonly else "rwc" if create else "rw"
    try:
        conn = sqlite3.connect(
            f"{path.absolute().as_uri()}?mode={mode}",
            uri=True,
            timeout=timeout,
            isolation_level=None,
        )
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot open the store: {exc}") from None
    try:
        _claim(conn, path, create)
    except sqlite3.OperationalError as exc:
        conn.close()
        if os.access(path.absolute().parent, os.W_OK):
            raise StoreError(f"{path}: not a usable getbit store: {exc}") from None
        if readonly and not _logged(path):
            return _as_it_is(path)
        raise StoreError(
            f"{path}: cannot open the store: its folder cannot be written, and SQLite writes "
            "files beside a store it opens (its -wal and -shm)"
            + ("" if readonly else "; 'getbit check' reads it there, other commands need a "
               "copy in a folder that can be written")
        ) from None
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise StoreError(f"{path}: not a usable getbit store: {exc}") from None
    except BaseException:
        conn.close()
        raise
    add_functions(conn)
    return conn


def _logged(path: Path) -> bool:
    """Whether writes to the store wait in its write-ahead log (``-wal``) beside it."""
    log = path.with_name(path.name + "-wal")
    return log.exists() and log.stat().st_size > 0


def _as_it_is(path: Path) -> sqlite3.Connection:
    """The store in a folder nobody can write, opened to read as it is: no writer can be
    at work there (its log could not be made), so SQLite may skip its locks and the
    shared-memory file it would make beside it (``immutable``)."""
    conn = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro&immutable=1", uri=True,
                           isolation_level=None)
    try:
        _claim(conn, path, False)
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise StoreError(f"{path}: not a usable getbit store: {exc}") from None
    add_functions(conn)
    return conn


def _casefold(value: str | None) -> str | None:
    return value.casefold() if isinstance(value, str) else value


def add_functions(conn: sqlite3.Connection) -> None:
    """The SQL functions the store's queries use: ``casefold(text)``, Python's
    ``str.casefold`` (SQLite's ``lower`` changes ASCII letters only)."""
    conn.create_function("casefold", 1, _casefold, deterministic=True)


def _claim(conn: sqlite3.Connection, path: Path, create: bool) -> None:
    """Refuse, by reading only, a database that is not a getbit store (or a new one)."""
    conn.execute("PRAGMA schema_version").fetchone()  # reads the header: fails if not SQLite
    tables = {
        name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    }
    applied = []
    if "_sqlite_migrations" in tables:
        applied = [
            name for (name,) in conn.execute(
                "SELECT name FROM _sqlite_migrations WHERE migration_set = ? ORDER BY rowid",
                (MIGRATIONS.name,),
            )
        ]
    if tables and not applied:
        shown = ", ".join(sorted(tables)[:5])
        raise StoreError(
            f"{path} is an SQLite database but not a getbit store (it holds {shown}); "
            "refusing to change it"
        )
    if not tables and not create:
        raise StoreError(f"{path} is an empty database, not a getbit store")
    known = {m.name for m in MIGRATIONS.pending(sqlite_utils.Database(memory=True))}
    unknown = [name for name in applied if name not in known]
    if unknown:
        raise StoreError(
            f"{path} was written by a newer getbit (schema {unknown[-1]}); "
            "upgrade getbit to use it"
        )


def use_wal(conn: sqlite3.Connection, timeout: float) -> None:
    """Switch the file to WAL. The switch does not wait for a busy database (two
    imports opening a new store at once), so it is retried until the timeout."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                conn.execute("PRAGMA journal_mode=wal")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)
