"""The store itself: ``GameStore`` writes games to the tables of ``schema`` and reads them back."""


from __future__ import annotations

import datetime
import itertools
import json
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from operator import itemgetter
from pathlib import Path
from typing import Any

import sqlite_utils

from getbit_events import readmodel
from getbit_events.errors import InputError, StoreError
from getbit_events.events import Event, GameStarted
from getbit_events.serialize import payload_json, trusted_event
from getbit_events.sqlite_store.schema import (
    MIGRATIONS,
    create_read_model,
    quote,
    read_model_signature,
    upsert,
)
from getbit_events.stored import (
    AddResult,
    RebuildResult,
    StoredGame,
    StoredViolation,
    check_file,
    default_path,
    status_of,
)
from getbit_events.stored import digest as _digest
from getbit_events.validate import GameReport

__all__ = ["GameStore"]  # the package re-exports it with the values it stores

_ID_LENGTH = 12
_FIRST, _SECOND = itemgetter(0), itemgetter(1)
_SHARED = 100_000  # events streams() keeps to share, at most
_GAME_ID, _DATE = 0, list(readmodel.COLUMNS).index("date")


# -- the store -----------------------------------------------------------------


class GameStore:
    """A SQLite file of recorded games.

    ``GameStore(path)`` opens (or creates; with ``create=False`` a missing file is
    a StoreError) the store and brings its schema up to date; a file that is not
    a getbit store is refused with StoreError and left as it is. ``timeout`` is
    how long a writer waits for another. Use it as a context manager, or call
    :meth:`close`.

    Writing: :meth:`add` (one game, one transaction), :meth:`rebuild`.
    Reading: :meth:`games`, :meth:`game`, :meth:`events`, :meth:`streams`,
    :meth:`violations`, :meth:`swimmer_rows`, :meth:`swimmer_tuples`,
    :meth:`totals`, :meth:`count`.
    """

    def __init__(
        self, path: str | Path | None = None, *, create: bool = True, timeout: float = 30.0
    ) -> None:
        self.path = Path(path) if path is not None else default_path()
        if not create and not self.path.exists():
            raise StoreError(f"no store at {self.path}: import games first, or give --db")
        check_file(self.path)
        try:
            conn = sqlite3.connect(str(self.path), timeout=timeout, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot open the store: {exc}") from None
        self._conn = conn
        self._timeout = timeout
        self._batch: _Batch | None = None  # the batch being written
        self.db = sqlite_utils.Database(conn, execute_plugins=False)
        self._prepare()
        try:
            self._open()
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise StoreError(f"{self.path}: not a usable getbit store: {exc}") from None
        except BaseException:
            conn.close()
            raise

    def _open(self) -> None:
        conn = self._conn
        conn.execute("PRAGMA schema_version").fetchone()  # reads the header: fails if not SQLite
        tables = set(self.db.table_names())
        ours = {"games", "events", "_sqlite_migrations"}
        if tables and not tables & ours:
            shown = ", ".join(sorted(tables)[:5])
            raise StoreError(
                f"{self.path} is an SQLite database but not a getbit store (it holds {shown}); "
                "refusing to change it"
            )
        known = {m.name for m in MIGRATIONS._migrations}
        unknown = [m.name for m in MIGRATIONS.applied(self.db) if m.name not in known]
        if unknown:
            raise StoreError(
                f"{self.path} was written by a newer getbit (schema {unknown[-1]}); "
                "upgrade getbit to use it"
            )
        self._use_wal()
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        # an import commits a batch of a few MB at a time: copying the WAL back
        # into the file after each (SQLite's default, every 4 MB) doubles the
        # writing, so let it grow to about 40 MB first (measured in bench/store.py)
        conn.execute("PRAGMA wal_autocheckpoint=10000")
        if MIGRATIONS.pending(self.db):
            with self._write():
                MIGRATIONS.apply(self.db)
        if self._meta("read_model") != read_model_signature():
            self.rebuild()

    def _use_wal(self) -> None:
        """Switch the file to WAL. The switch does not wait for a busy database (two
        imports opening a new store at once), so it is retried until the timeout."""
        deadline = time.monotonic() + self._timeout
        while True:
            try:
                if self._conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                    self._conn.execute("PRAGMA journal_mode=wal")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    def _prepare(self) -> None:
        cols = list(readmodel.COLUMNS)
        self._insert_game = (
            "INSERT INTO games (id, hash, source, source_line, source_game, tags, variant, "
            "swimmers, status, winner, rounds, events, violations, imported_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        )
        self._insert_event = (
            "INSERT INTO events (game_id, seq, type, version, round, payload) "
            "VALUES (?, ?, ?, ?, ?, ?)"
        )
        self._insert_violation = (
            'INSERT INTO violations (game_id, line, "column", round, code, rule, message) '
            "VALUES (?, ?, ?, ?, ?, ?, ?)"
        )
        self._upserts = {t: upsert(t) for t in readmodel.TOTALS if t != "standings"}
        self._insert_row = (
            f"INSERT INTO {readmodel.TABLE} ({', '.join(quote(c) for c in cols)}) "
            f"VALUES ({', '.join('?' for _ in cols)})"
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
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
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
        only then. Their events and read-model rows are written, and the totals
        brought up to date, once for the whole batch, just before the commit.
        """
        if self._batch is not None:
            raise RuntimeError("a batch is already being written")
        try:
            with self._write() as conn:
                self._batch = batch = _Batch()
                try:
                    yield
                    conn.executemany(self._insert_event, batch.events)
                    conn.executemany(self._insert_row, batch.rows)
                    self._count(batch.tally)
                finally:
                    self._batch = None
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: could not store the games: {exc}") from None

    def add(self, report: GameReport) -> AddResult:
        """Store one validated game with its events, violations and read-model rows.

        The game is written whole or not at all. A game already stored (the
        same canonical content, from any file) is not stored again:
        ``AddResult.stored`` is False. A report whose record has syntax errors
        cannot be stored (InputError): there is no game to keep.
        """
        if not report.readable:
            first = report.violations[0] if report.violations else None
            raise InputError(f"{first or report.source}: a game with syntax errors is not stored")
        status = status_of(report)
        events = report.events
        payloads = [payload_json(e) for e in events]
        digest = _digest(report, payloads)
        setup = events[0] if events and isinstance(events[0], GameStarted) else None
        if setup is not None:
            tags = dict(setup.tags)
        else:
            tags = {t.name: t.value for t in report.record.tags}
        rounds = events[-1].round if events else 0  # events come in round order
        imported_at = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
        game = (
            digest,
            report.source,
            report.record.pos.line,
            report.record.index,
            json.dumps(tags, ensure_ascii=False),
            setup.variant if setup is not None else None,
            json.dumps(list(setup.line) if setup else [], ensure_ascii=False),
            status,
            report.winner,
            rounds,
            len(events),
            len(report.violations),
            imported_at,
        )
        batch = self._batch
        try:
            with self._write() if batch is None else nullcontext(self._conn) as conn:
                game_id = digest[:_ID_LENGTH]
                try:  # the unique id and hash find a game already stored
                    seq = conn.execute(self._insert_game, (game_id, *game)).lastrowid
                except sqlite3.IntegrityError:
                    known = conn.execute("SELECT id FROM games WHERE hash = ?", (digest,))
                    found = known.fetchone()
                    if found is not None:
                        return AddResult(found[0], False, status)
                    game_id = self._free_id(digest)  # another game's hash starts the same
                    seq = conn.execute(self._insert_game, (game_id, *game)).lastrowid
                event_rows = [
                    (game_id, seq, e.TYPE, e.VERSION, e.round, p)
                    for seq, (e, p) in enumerate(zip(events, payloads, strict=True), 1)
                ]
                if batch is None:
                    conn.executemany(self._insert_event, event_rows)
                else:  # written with the batch
                    batch.events.extend(event_rows)
                if report.violations:
                    conn.executemany(
                        self._insert_violation,
                        [
                            (game_id, v.pos.line, v.pos.column, v.round, v.code, v.rule, v.message)
                            for v in report.violations
                        ],
                    )
                if setup is not None:
                    rows = readmodel.row_tuples(game_id, events, status, tags)
                    if batch is not None:  # written and counted with the batch
                        batch.rows.extend(rows)
                        batch.tally.add(rows, seq or 0)
                    else:
                        conn.executemany(self._insert_row, rows)
                        tally = readmodel.Tally()
                        tally.add(rows, seq or 0)
                        self._count(tally)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: could not store the game: {exc}") from None
        return AddResult(game_id, True, status)

    def _free_id(self, digest: str) -> str:
        length = _ID_LENGTH
        while True:
            game_id = digest[:length]
            taken = self._conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,))
            if taken.fetchone() is None:
                return game_id
            length += 4  # another game's hash starts the same: take more of ours

    def rebuild(self) -> RebuildResult:
        """Recreate the read model from the events, in one transaction."""
        conn = self._conn
        games = events = rows = 0
        try:
            with self._write():
                create_read_model(self.db)
                info = {
                    gid: (status, json.loads(tags), seq)
                    for gid, status, tags, seq in conn.execute(
                        "SELECT id, status, tags, rowid FROM games"
                    )
                }
                batch: list[tuple[Any, ...]] = []
                tally = readmodel.Tally()
                for game_id, stream in self.streams():
                    status, tags, seq = info[game_id]
                    game = readmodel.row_tuples(game_id, stream, status, tags)
                    tally.add(game, seq)
                    batch.extend(game)
                    games += 1
                    events += len(stream)
                    if len(batch) >= 5000:
                        rows += len(batch)
                        conn.executemany(self._insert_row, batch)
                        batch = []
                rows += len(batch)
                conn.executemany(self._insert_row, batch)
                self._count(tally)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: could not rebuild: {exc}") from None
        return RebuildResult(games, events, rows)

    def _count(self, tally: readmodel.Tally, results: list[readmodel.Result] | None = None) -> None:
        """Add ``tally`` to the totals tables and fold ``results`` (by default the
        tally's) into the standings, inside a write.

        Games that come after every game folded in so far are folded in at once;
        one that comes before marks the standings stale, and they are worked out
        again, from ``game_swimmers``, the next time they are read.
        """
        conn = self._conn
        results = tally.results if results is None else results
        for table, counts in (
            ("player_totals", tally.players),
            ("player_names", tally.names),
            ("pair_totals", tally.pairs),
            ("game_totals", tally.games),
        ):
            conn.executemany(self._upserts[table], [(*k, *v) for k, v in counts.items()])
        if not results:
            return
        state = conn.execute("SELECT value FROM meta WHERE key = 'standings'").fetchone()
        if state is not None and state[0] == "stale":
            return
        results.sort(key=_FIRST)
        if state is not None and results[0][0] <= json.loads(state[0])[0]:
            conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('standings', 'stale')")
            return
        keys = sorted({key for _, _, result in results for key, _, _ in result})
        known = conn.execute(
            f"SELECT * FROM standings WHERE player_key IN ({', '.join('?' for _ in keys)})", keys
        )
        standings = readmodel.Standings({row[0]: row[1:] for row in known})
        for order, row, result in results:
            standings.add(result, row[_DATE] is not None, order, row[_GAME_ID])
        conn.executemany(
            f"INSERT OR REPLACE INTO standings VALUES (?{', ?' * len(readmodel.STANDING)})",
            [(key, *standings.players[key]) for key in keys],
        )
        last = json.dumps([results[-1][0], results[-1][1][_GAME_ID]])
        conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('standings', ?)", (last,))

    # -- reading ---------------------------------------------------------------

    def count(self, status: str | None = None) -> int:
        """How many games are stored (with ``status`` when given)."""
        if status is None:
            return int(self._conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        sql = "SELECT COUNT(*) FROM games WHERE status = ?"
        return int(self._conn.execute(sql, (status,)).fetchone()[0])

    def games(
        self, *, player: str | None = None, status: str | None = None
    ) -> Iterator[StoredGame]:
        """Stored games in import order; ``player`` matches a swimmer or player, ignoring case."""
        where, params = [], []
        if status is not None:
            where.append("status = ?")
            params.append(status)
        if player is not None:
            where.append(
                f"id IN (SELECT game_id FROM {readmodel.TABLE} WHERE player_key = ? OR swimmer = ?)"
            )
            params.extend([player.casefold(), player])
        sql = "SELECT * FROM games"
        if where:
            sql += " WHERE " + " AND ".join(where)
        for row in self.db.query(sql + " ORDER BY rowid", params):
            yield _stored_game(row)

    def game(self, ref: str) -> StoredGame:
        """The game whose id is ``ref`` or starts with it (InputError when none or several)."""
        ref = ref.strip()
        if not ref:
            raise InputError("a game id is needed (see 'getbit games')")
        like = ref.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        found = list(
            self.db.query(
                "SELECT * FROM games WHERE id = ? OR id LIKE ? ESCAPE '\\' ORDER BY id LIMIT 6",
                [ref, like],
            )
        )
        exact = [r for r in found if r["id"] == ref]
        if exact:
            return _stored_game(exact[0])
        if not found:
            raise InputError(f"no game {ref!r} in {self.path} (see 'getbit games')")
        if len(found) > 1:
            ids = ", ".join(r["id"] for r in found[:5])
            raise InputError(f"{ref!r} could be any of {ids} ...; give more of the id")
        return _stored_game(found[0])

    def events(self, game_id: str) -> list[Event]:
        """The game's complete event stream, set-up first (empty for an invalid set-up)."""
        cursor = self._conn.execute(
            "SELECT type, version, round, payload FROM events WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [trusted_event(t, v, r, _loads(p, 0)[0]) for t, v, r, p in cursor]

    def streams(self) -> Iterator[tuple[str, list[Event]]]:
        """Every stored game's id and event stream, a game at a time, in the order stored.

        Games whose set-up broke the rules have no events and are not among them.
        """
        cursor = self._conn.execute(
            "SELECT g.id, e.type, e.version, e.round, e.payload FROM games g "
            "JOIN events e ON e.game_id = g.id ORDER BY g.rowid, e.seq"
        )
        # Events are frozen values, and many recur from game to game (the same
        # choice in the same round): each is decoded once and shared.
        seen: dict[tuple[str, int, int, str], Event] = {}
        make, loads = trusted_event, _loads
        for game_id, group in itertools.groupby(cursor, key=_FIRST):
            stream = []
            for _, t, v, r, p in group:
                event = seen.get((t, v, r, p))
                if event is None:
                    if len(seen) >= _SHARED:
                        seen.clear()
                    event = seen[(t, v, r, p)] = make(t, v, r, loads(p, 0)[0])
                stream.append(event)
            yield game_id, stream

    def violations(self, game_id: str) -> list[StoredViolation]:
        """The violations kept with the game, in record order."""
        rows = self._conn.execute(
            'SELECT line, "column", round, code, rule, message FROM violations '
            'WHERE game_id = ? ORDER BY line, "column", rowid',
            (game_id,),
        )
        return [StoredViolation(*r) for r in rows]

    def swimmer_rows(self, **filters: Any) -> Iterator[dict[str, Any]]:
        """Read-model rows (``readmodel.COLUMNS``) whose columns equal ``filters``.

        ``swimmer_rows(player_key="anne", status="valid")``; a name not in the
        columns is a ValueError. Rows come in import order, then starting place.
        """
        unknown = set(filters) - set(readmodel.COLUMNS)
        if unknown:
            raise ValueError(f"not read-model columns: {', '.join(sorted(unknown))}")
        where = " AND ".join(f"r.{quote(k)} = ?" for k in filters) or "1"
        sql = (
            f"SELECT r.* FROM {readmodel.TABLE} r JOIN games g ON g.id = r.game_id "
            f"WHERE {where} ORDER BY g.rowid, r.role = 'shark', r.start_place"
        )
        yield from self.db.query(sql, list(filters.values()))

    def swimmer_tuples(self, columns: Sequence[str]) -> Iterator[tuple[Any, ...]]:
        """Every read-model row as a plain tuple of ``columns``, in the order stored
        (a game's rows together): the quick way to read them all."""
        unknown = set(columns) - set(readmodel.COLUMNS)
        if unknown:
            raise ValueError(f"not read-model columns: {', '.join(sorted(unknown))}")
        names = ", ".join(quote(c) for c in columns)
        return self._conn.execute(f"SELECT {names} FROM {readmodel.TABLE} ORDER BY rowid")

    def totals(self, player_key: str | None = None) -> readmodel.Totals:
        """The totals read model of valid games, for every player or for the games
        of one (``player_key``): what a report of those needs besides the rows."""
        conn = self._conn
        self._refresh_standings()
        one = "" if player_key is None else " WHERE player_key = ?"
        key = () if player_key is None else (player_key,)
        places = (
            "SELECT swimmers, start_place, COUNT(*), SUM(won) FROM game_swimmers "
            "WHERE status = 'valid' AND role != 'shark'"
        )
        if player_key is not None:
            places += (
                " AND game_id IN (SELECT game_id FROM game_swimmers WHERE player_key = ? "
                "AND status = 'valid' AND role != 'automaton')"
            )
        conn.execute("BEGIN")  # one snapshot: a writer's game is in all of it or in none
        try:
            state = conn.execute("SELECT value FROM meta WHERE key = 'standings'").fetchone()
            return readmodel.Totals(
                players=conn.execute(f"SELECT * FROM player_totals{one}", key).fetchall(),
                names=conn.execute("SELECT * FROM player_names").fetchall(),
                pairs=conn.execute(
                    "SELECT * FROM pair_totals"
                    + ("" if player_key is None else " WHERE first = ? OR second = ?"),
                    key * 2,
                ).fetchall(),
                games=conn.execute("SELECT * FROM game_totals").fetchall(),
                places=conn.execute(places + " GROUP BY swimmers, start_place", key).fetchall(),
                standings=conn.execute(f"SELECT * FROM standings{one}", key).fetchall(),
                latest=json.loads(state[0])[1] if state is not None else None,
            )
        finally:
            conn.execute("COMMIT")

    def _refresh_standings(self) -> None:
        """Work the standings out again from ``game_swimmers`` when they are stale."""
        conn = self._conn
        state = conn.execute("SELECT value FROM meta WHERE key = 'standings'").fetchone()
        if state is None or state[0] != "stale":
            return
        with self._write():
            conn.execute("DELETE FROM standings")
            conn.execute("DELETE FROM meta WHERE key = 'standings'")
            cursor = conn.execute(
                f"SELECT g.rowid, r.* FROM {readmodel.TABLE} r JOIN games g ON g.id = r.game_id "
                "WHERE r.status = 'valid' ORDER BY r.rowid"
            )
            tally = readmodel.Tally()
            for _, group in itertools.groupby(cursor, key=_SECOND):
                rows = list(group)
                tally.add([row[1:] for row in rows], rows[0][0])
            self._count(readmodel.Tally(), tally.results)

    def table_rows(self, table: str) -> list[dict[str, Any]]:
        """Every row of one of the store's tables, for tests and checks (sorted)."""
        if table not in {"games", "events", "violations", readmodel.TABLE, *readmodel.TOTALS}:
            raise ValueError(f"not a store table: {table}")
        return sorted(self.db.query(f"SELECT * FROM {table}"), key=repr)


# The C scanner behind json.loads, called straight: the store reads back only the
# compact JSON it wrote, so the checks around it (whitespace, trailing text) are
# not needed, and a stream decodes in half the time.
_loads: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


class _Batch:
    """What a batch of games still has to write before it commits."""

    def __init__(self) -> None:
        self.events: list[tuple[Any, ...]] = []
        self.rows: list[tuple[Any, ...]] = []
        self.tally = readmodel.Tally()


def _stored_game(row: dict[str, Any]) -> StoredGame:
    tags = tuple(json.loads(row["tags"] or "{}").items())
    swimmers = tuple(json.loads(row["swimmers"] or "[]"))
    return StoredGame(**{**row, "tags": tags, "swimmers": swimmers})
