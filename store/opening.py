"""Opening a store file: whether it is a getbit store, or may become one, is
decided before anything is written to it (not even the switch to WAL)."""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import sqlite_utils

from getbit_events.errors import StoreError
from store.migrations import MIGRATIONS
from store.stored import check_file

__all__ = ["add_functions", "cannot_write", "connect", "reads_only", "use_wal"]


def connect(path: Path, *, create: bool, readonly: bool, timeout: float) -> sqlite3.Connection:
    """A connection to the getbit store at ``path``; with ``create`` (and not
    ``readonly``), a missing or empty file becomes one.

    A store this process cannot write (the file, or the folder SQLite writes its
    ``-wal`` and ``-shm`` files in: a read-only mount, another user's folder) is
    opened to read only when not creating: ``reads_only`` says so of the
    connection. When SQLite cannot open it even so (it would make its ``-shm``
    file beside it), it is read as it is (``immutable``), unless writes wait in
    its log (``-wal``), which only a connection that can write there reads.

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
    if path.exists() and not (_writable(path) and _writable(path.absolute().parent)):
        if create:
            raise StoreError(f"{path}: cannot write to the store here: {_READ_ONLY}")
        readonly = True
    mode = "ro" if readonly else "rwc" if create else "rw"
    try:
        conn = sqlite3.connect(
            f"{path.absolute().as_uri()}?mode={mode}",
            uri=True,
            timeout=timeout,
            isolation_level=None,
            factory=_ReadOnly if readonly else sqlite3.Connection,
        )
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot open the store: {exc}") from None
    try:
        _claim(conn, path, create)
    except sqlite3.OperationalError as exc:
        conn.close()
        if _writable(path.absolute().parent):
            raise StoreError(f"{path}: not a usable getbit store: {exc}") from None
        if readonly and not _logged(path):
            return _as_it_is(path)
        raise StoreError(
            f"{path}: cannot open the store: its folder cannot be written, and writes wait "
            "in its log (its -wal file: a getbit is writing to it, or one stopped before it "
            "was done), which only a getbit that can write there reads: try again once the "
            "writer is done, or copy the store and its -wal file to a folder that can be "
            "written"
        ) from None
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise StoreError(f"{path}: not a usable getbit store: {exc}") from None
    except BaseException:
        conn.close()
        raise
    add_functions(conn)
    return conn


#: Why a store cannot be written, and what can still be done with it.
_READ_ONLY = (
    "the file or its folder cannot be written (a read-only mount, another user's "
    "folder); the commands that only read it (check, stats, games, show, export, "
    "replay, report) read it there as it is; to change it, copy it to a folder that "
    "can be written"
)


class _ReadOnly(sqlite3.Connection):
    """A connection opened to read only (``reads_only``)."""


def reads_only(conn: sqlite3.Connection) -> bool:
    """Whether ``conn`` was opened to read only (``connect``)."""
    return isinstance(conn, _ReadOnly)


def cannot_write(path: Path) -> StoreError:
    """What a write to a store opened to read only (``reads_only``) says."""
    return StoreError(f"{path}: cannot write to the store here: {_READ_ONLY}")


def _writable(path: Path) -> bool:
    """Whether this process may write ``path`` (False on a read-only mount, even for root)."""
    return os.access(path, os.W_OK)


def _logged(path: Path) -> bool:
    """Whether writes to the store wait in its write-ahead log (``-wal``) beside it."""
    log = path.with_name(path.name + "-wal")
    return log.exists() and log.stat().st_size > 0


def _as_it_is(path: Path) -> sqlite3.Connection:
    """The store in a folder this process cannot write, opened to read as it is: SQLite
    skips its locks and the shared-memory file it would make beside it (``immutable``).
    No writer is at work (none has its log open), and none can be on a read-only
    mount; in another user's folder its owner could start one while this reads, which
    the docs say (``docs/store.md``)."""
    conn = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro&immutable=1", uri=True,
                           isolation_level=None, factory=_ReadOnly)
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
