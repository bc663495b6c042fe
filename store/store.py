"""The store itself: ``GameStore`` opens a store and writes games to the tables of
``schema``; what it reads back, it reads as a ``queries.Queries``."""


from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlite_utils

from biteme.validate import BiteReport
from getbit_events.errors import StoreError
from getbit_events.validate import GameReport
from store import eventlog, readmodel, revisions
from store.adding import ID_LENGTH, NewGame
from store.bite import prepare_either
from store.migrations import MIGRATIONS
from store.opening import cannot_write, connect, reads_only, use_wal
from store.queries import Queries
from store.rebuilding import rebuild_read_model
from store.schema import (
    CHAIN_COLUMNS,
    GAME,
    GAME_COLUMNS,
    RECORD,
    create_read_model,
    quote,
    read_model_signature,
    rewrite_guard,
    row_ids,
)
from store.stored import (
    GENESIS,
    AddResult,
    HistoryEntry,
    RebuildResult,
    chain_head,
    chain_row,
    chain_value,
    default_path,
    read_head,
    record_digest,
)
from store.totals import add_tally

# the package re-exports GameStore with the values it stores
__all__ = ["BatchLost", "GameStore"]


# -- the store -----------------------------------------------------------------


class GameStore(Queries):
    """A SQLite file of recorded games.

    ``GameStore(path)`` opens (or creates; with ``create=False`` a missing or
    empty file is a StoreError) the store and brings its schema up to date; a
    file that is not a getbit store is refused with StoreError and left as it is
    (``opening``). ``readonly=True`` opens it to read only (``getbit check``):
    nothing is written, not even a migration. A store that cannot be written here
    (a read-only mount, another user's folder) is a StoreError with ``create``;
    without, it is opened to read only too, if this getbit need not bring it up to
    date first, and a write to it is then a StoreError. ``timeout`` is how long a
    writer waits for another. Use it as a context manager, or call :meth:`close`.

    Writing: :meth:`add` (one game, one transaction), :meth:`supersede` and
    :meth:`retract` (the history), :meth:`rebuild`.
    Reading: :meth:`games`, :meth:`game`, :meth:`events`, :meth:`streams`,
    :meth:`violations`, :meth:`history`, :meth:`dropped`, :meth:`left_out`,
    :meth:`swimmer_rows`, :meth:`swimmer_tuples`, :meth:`totals`, :meth:`count`.
    """

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        create: bool = True,
        timeout: float = 30.0,
        readonly: bool = False,
    ) -> None:
        self.path = Path(path) if path is not None else default_path()
        self._conn = conn = connect(
            self.path, create=create, readonly=readonly, timeout=timeout
        )
        self._batch: _Batch | None = None  # the batch being written
        self._log = eventlog.Log()  # how events are written compactly: the kinds known
        self._compact: bool | None = None  # whether the events are (a store from before)
        self._source: str | None = None  # the SQL of a game's record text (source_sql)
        self.db = sqlite_utils.Database(conn, execute_plugins=False)
        self._prepare()
        #: Whether the store is open to read only: asked (``readonly``), or it cannot
        #: be written here (``opening.connect``); a write is then a StoreError.
        self.readonly = readonly or reads_only(conn)
        if readonly:
            return
        if self.readonly:
            self._current_or_refuse()
            return
        try:
            use_wal(conn, timeout)
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            # an import commits a batch of a few MB at a time: copying the WAL back
            # into the file after each (SQLite's default, every 4 MB) doubles the
            # writing, so let it grow to about 40 MB first (measured in bench/store.py)
            conn.execute("PRAGMA wal_autocheckpoint=10000")
            if MIGRATIONS.pending(self.db):
                self._migrate()
            if self._meta("read_model") != read_model_signature():
                self.rebuild()
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise StoreError(f"{self.path}: not a usable getbit store: {exc}") from None
        except BaseException:
            conn.close()
            raise

    def _migrate(self) -> None:
        """Bring the store up to date, in one write, with the foreign keys set aside for
        it: a migration may make a table again that another's rows name
        (``m011_by_number``), SQLite's way (lang_altertable.html), which it cannot do
        with them on; the rows it copies are the rows that were there."""
        conn = self._conn
        conn.execute("PRAGMA foreign_keys=OFF")  # outside a transaction, or it does nothing
        try:
            with self._write():
                MIGRATIONS.apply(self.db)
        finally:
            conn.execute("PRAGMA foreign_keys=ON")

    def _prepare(self) -> None:
        cols = list(readmodel.COLUMNS)
        columns = (*GAME_COLUMNS, *CHAIN_COLUMNS, GAME, RECORD)
        self._insert_game = (  # the rowid given: the game's number (_next_number)
            f"INSERT INTO games (rowid, {', '.join(columns)}) "
            f"VALUES (?, {', '.join('?' for _ in columns)})"
        )
        self._insert_event = (
            "INSERT INTO event_runs (game, seq, round, events) VALUES (?, ?, ?, ?)"
        )
        self._insert_violation = (
            'INSERT INTO violations (game_id, line, "column", round, code, rule, message) '
            "VALUES (?, ?, ?, ?, ?, ?, ?)"
        )
        self._insert_row = (  # rowid first (schema.row_ids)
            f"INSERT INTO {readmodel.TABLE} (rowid, {', '.join(quote(c) for c in cols)}) "
            f"VALUES (?, {', '.join('?' for _ in cols)})"
        )

    def _current_or_refuse(self) -> None:
        """A store that can only be read is read as it is: StoreError when this getbit
        would first bring it up to date (a migration, the read model made again)."""
        if MIGRATIONS.pending(self.db) or self._meta("read_model") != read_model_signature():
            self._conn.close()
            raise StoreError(
                f"{self.path}: this getbit must first bring the store up to date (it was "
                "written by an earlier one), which writes to it, and it cannot be written "
                "here: open it once where it can be written, or copy it to such a folder"
            )

    def _meta(self, key: str) -> str | None:
        if "meta" not in self.db.table_names():
            return None
        row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    # -- life cycle ------------------------------------------------------------

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken at once (BEGIN IMMEDIATE), committed or rolled back."""
        if self.readonly:
            raise cannot_write(self.path)
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        self._log.kinds.stale()  # another writer may have added some
        try:
            yield conn
        except BaseException:
            self._log.kinds.stale()  # the ones this write added are gone
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    # -- writing ---------------------------------------------------------------

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Write the games :meth:`add` gets inside in one transaction.

        The games are stored together when the block ends without an error, or
        none of them is (a game is never stored in part): report games stored
        only then. A game :meth:`add` fails on (any exception) is rolled back
        alone, to its savepoint; the others stay in the batch. Their events and
        read-model rows are written, and the totals brought up to date, once for
        the whole batch, just before the commit.
        """
        if self._batch is not None:
            raise RuntimeError("a batch is already being written")
        try:
            with self._savepoints_in_memory(), self._write() as conn:
                self._batch = batch = _Batch(self._head(), self._next_number())
                try:
                    yield
                    if batch.lost or not conn.in_transaction:
                        raise BatchLost(f"{self.path}: the games of this batch were lost")
                    self._insert_events(batch.games, batch.runs)
                    conn.executemany(self._insert_row, batch.rows)
                    add_tally(conn, batch.tally)
                    self._set_head(batch.head)
                finally:
                    self._batch = None
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: could not store the games: {exc}") from None

    @contextmanager
    def _savepoints_in_memory(self) -> Iterator[None]:
        """SQLite's copies of the pages a savepoint changes (to roll back to) kept in
        memory, not in a temporary file, while a batch is written.

        Past 64 KiB, SQLite writes them to a file, read only if a game is rolled
        back: about 40 writes a game. In memory they are under 100 KB (a game's
        pages), given back at its release: an import's writer 13% less CPU
        (docs/architecture.md, "Speed tricks"). Only for a batch: elsewhere the
        setting (``temp_store``) also keeps SQLite's sorts in memory, and those can be
        large."""
        conn = self._conn
        (was,) = conn.execute("PRAGMA temp_store").fetchone()
        conn.execute("PRAGMA temp_store=MEMORY")
        try:
            yield
        finally:
            conn.execute(f"PRAGMA temp_store={int(was)}")

    def _insert_events(
        self, games: list[tuple[int, str, str]], runs: list[tuple[int, int, Any, str]]
    ) -> None:
        """Insert a batch's events (``eventlog``: each game's texts, its runs), inside
        its write, and make the guard of the runs again if it was dropped (``getbit
        check`` says so; setting it aside around the insert no longer earns anything
        with a row a round: ``docs/architecture.md``)."""
        conn = self._conn
        conn.executemany(
            "INSERT INTO event_games (game, game_id, strings) VALUES (?, ?, ?)", games
        )
        conn.executemany(self._insert_event, runs)
        _, create = rewrite_guard("event_runs")
        conn.execute(create.replace("CREATE TRIGGER", "CREATE TRIGGER IF NOT EXISTS", 1))

    @contextmanager
    def _savepoint(self, batch: _Batch) -> Iterator[sqlite3.Connection]:
        """One game of a batch: rolled back alone when it fails."""
        if batch.lost:
            raise BatchLost(f"{self.path}: the games of this batch were lost")
        conn = self._conn
        conn.execute("SAVEPOINT game")
        try:
            yield conn
        except BaseException:
            self._log.kinds.stale()
            if conn.in_transaction:
                conn.execute("ROLLBACK TO game")
                conn.execute("RELEASE game")
            else:  # SQLite gave up the whole transaction (a full disk, say)
                batch.lost = True
            raise
        conn.execute("RELEASE game")

    def add(self, report: GameReport | BiteReport | NewGame) -> AddResult:
        """Store one validated game with its events, violations and read-model rows.

        The game is written whole or not at all. A game already stored (the
        same canonical content, from any file) is not stored again:
        ``AddResult.stored`` is False. A report whose record has syntax errors
        cannot be stored (InputError): there is no game to keep. ``report`` may
        be what ``adding.prepare`` made of it (in a worker process).
        """
        new = report if isinstance(report, NewGame) else prepare_either(report)
        batch = self._batch
        try:
            with self._write() if batch is None else self._savepoint(batch) as conn:
                head = self._head() if batch is None else batch.head
                number = self._next_number() if batch is None else batch.number
                placed = self._place(conn, new, head[1], number)
                if isinstance(placed, AddResult):
                    return placed
                game_id, seq, chain = placed
                head = (head[0] + 1, chain)
                rows = self._facts(conn, new, game_id, seq)
                like = revisions.lookalikes(conn, game_id, dict(new.tags), new.swimmers)
                strings, runs = self._log.place(conn, new.events)
                if batch is None:
                    self._insert_events([(seq, game_id, strings)], [(seq, *r) for r in runs])
                    self._count(conn, rows, seq)
                    self._set_head(head)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: could not store the game: {exc}") from None
        if batch is not None:  # the game is in: written and counted with the batch
            batch.games.append((seq, game_id, strings))
            batch.runs.extend((seq, *r) for r in runs)
            if rows:
                batch.rows.extend(row_ids(seq, rows))
                batch.tally.add(rows, seq)
            batch.head = head
            batch.number = seq + 1
        return AddResult(game_id, True, new.status, like)

    def _place(
        self, conn: sqlite3.Connection, new: NewGame, prev: str, number: int
    ) -> tuple[str, int, str] | AddResult:
        """Insert the game's row, chained to ``prev``, as game ``number`` (its rowid): its
        id, rowid and chain value; or, for a game already stored, what adding it did."""
        game_id = new.digest[:ID_LENGTH]
        record = record_digest(new.source, new.violations)
        try:  # the unique id finds a game stored under it: this one, or one starting the same
            chain = self._insert(conn, prev, (number, game_id, new.digest, *new.row), new.game,
                                 record)
        except sqlite3.IntegrityError:
            game_id, known = self._own_id(new.digest)
            if known:
                return AddResult(game_id, False, new.status)
            chain = self._insert(conn, prev, (number, game_id, new.digest, *new.row), new.game,
                                 record)
        return game_id, number, chain

    def _facts(
        self, conn: sqlite3.Connection, new: NewGame, game_id: str, seq: int
    ) -> list[tuple[Any, ...]]:
        """Write the game's record text and violations; its read-model rows, to write."""
        if new.source is not None:  # its provenance, as imported, under its number (m011)
            conn.execute(
                "INSERT INTO sources (game, game_id, text, size) VALUES (?, ?, ?, ?)",
                (seq, game_id, *new.source),
            )
        if new.violations:
            conn.executemany(self._insert_violation, [(game_id, *v) for v in new.violations])
        return new.read_model(game_id)

    def _count(self, conn: sqlite3.Connection, rows: list[tuple[Any, ...]], seq: int) -> None:
        """Write one game's read-model rows and add them to the totals."""
        if rows:
            conn.executemany(self._insert_row, row_ids(seq, rows))
            tally = readmodel.Tally()
            tally.add(rows, seq)
            add_tally(conn, tally)

    def supersede(
        self, game_id: str, target: str, reason: str | None = None
    ) -> HistoryEntry | None:
        """Append to the history that stored game ``game_id`` supersedes game
        ``target`` (an id or its start), in the batch being written or a write of
        its own; the totals are counted again. None when it already did.

        InputError, and nothing written, for an unknown or ambiguous ``target``
        and whatever :func:`revisions.append_revision` refuses. The checks run in
        the write that appends, so of two processes revising one game, one wins.
        """
        with self._history_write() as conn:
            return revisions.append_revision(conn, game_id, self.game(target).id, reason)

    def retract(self, ref: str, reason: str | None = None) -> HistoryEntry:
        """Append to the history that the game ``ref`` (an id or its start) is
        retracted, entered by mistake; the totals are counted again. InputError,
        and nothing written, when it is unknown, already retracted or superseded."""
        with self._history_write() as conn:
            return revisions.append_retraction(conn, self.game(ref).id, reason)

    @contextmanager
    def _history_write(self) -> Iterator[sqlite3.Connection]:
        try:
            if self._batch is not None:
                yield self._conn
            else:
                with self._write() as conn:
                    yield conn
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: could not write the history: {exc}") from None

    def _insert(
        self, conn: sqlite3.Connection, prev: str, row: tuple[Any, ...], game: str, record: str
    ) -> str:
        """Insert a games row of ``game`` (its number, its rowid, first) chained to
        ``prev``, with its ``record`` (``stored.record_digest``): its chain value."""
        chain = chain_value(prev, chain_row(row[1:], game, record))
        conn.execute(self._insert_game, (*row, prev, chain, game, record))
        return chain

    def _next_number(self) -> int:
        """The number (games rowid) of the next game stored, inside a write: one past
        every number the store holds, games' and others' alike. A game's text and
        events are kept under its number (``m011_by_number``), so a game whose row was
        removed (behind the triggers: ``getbit check`` says so) leaves them under a
        number no game takes again."""
        (number,) = self._conn.execute(
            "SELECT MAX(COALESCE((SELECT MAX(rowid) FROM games), 0), "
            "COALESCE((SELECT MAX(game) FROM event_games), 0), "
            "COALESCE((SELECT MAX(game) FROM sources), 0))"
        ).fetchone()
        return int(number) + 1

    def _head(self) -> tuple[int, str]:
        """The chain's head: how many games, the last one's chain value (inside a write)."""
        head = read_head(self._meta("chain"))
        if head is None:  # a damaged meta: go on from the last game (getbit check says so)
            count, last = self._conn.execute(
                "SELECT COUNT(*), (SELECT chain FROM games ORDER BY rowid DESC LIMIT 1) FROM games"
            ).fetchone()
            head = (count, last or GENESIS)
        return head

    def _set_head(self, head: tuple[int, str]) -> None:
        self._conn.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES ('chain', ?)", (chain_head(*head),)
        )

    def _own_id(self, digest: str) -> tuple[str, bool]:
        """The id of the game of hash ``digest`` and whether it is stored already: the
        first of its hash's starts (``ID_LENGTH`` digits, then 4 more at a time)
        that is free or holds this hash (the index of ids serves for both, m009)."""
        length = ID_LENGTH
        while True:
            game_id = digest[:length]
            held = self._conn.execute("SELECT hash FROM games WHERE id = ?", (game_id,))
            found = held.fetchone()
            if found is None or found[0] == digest:
                return game_id, found is not None
            length += 4  # another game's hash starts the same: take more of ours

    def rebuild(self, on_game: Callable[[], None] | None = None) -> RebuildResult:
        """Recreate the read model from the events, in one transaction.

        A damaged game (see :meth:`streams`) is left out of it, and said in
        ``RebuildResult.skipped``; the others are rebuilt. ``on_game()`` is called
        after each game with events (for progress; :meth:`count` gives the total).
        """
        try:
            with self._write():
                create_read_model(self.db)
                return rebuild_read_model(
                    self._conn,
                    self.streams,
                    self._insert_row,
                    revisions.dropped(self._conn),
                    on_game,
                )
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: could not rebuild: {exc}") from None


class BatchLost(StoreError):
    """SQLite gave up a batch's transaction (a full disk, say): none of its games is stored."""


class _Batch:
    """What a batch of games still has to write before it commits."""

    def __init__(self, head: tuple[int, str], number: int) -> None:
        self.number = number  # the next game's (GameStore._next_number)
        self.games: list[tuple[int, str, str]] = []  # event_games rows
        self.runs: list[tuple[int, int, Any, str]] = []  # event_runs rows
        self.rows: list[tuple[Any, ...]] = []
        self.tally = readmodel.Tally()
        self.head = head  # the chain's head, with the games added so far
        self.lost = False
