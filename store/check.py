"""``check_store``: the store's own fsck. Every game's hash re-derived from its
events, its events re-folded and compared with its row and its read-model rows,
the chain of games followed; nothing written. What it holds of the store as a whole
(its guards, totals, standings, history, rows without a game) is ``check_tables``.
"""

from __future__ import annotations

import functools
import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs

from getbit_events.errors import StoreError
from getbit_events.events import CardsRevealed, Event, GameEnded, GameStarted
from getbit_events.reducer import fold
from importers.wire import bite_event_from_payload, event_from_payload
from store import eventlog, readmodel
from store.bite import expected_row, is_bite_stream
from store.check_tables import guards, history, strays, totals
from store.rows import row_chain, seq_gaps, why
from store.schema import (
    CHAIN_COLUMNS,
    GAME,
    GAME_COLUMNS,
    GUARDS,
    LEGACY_GUARDS,
    RECORD,
    ROW_SLOTS,
    SOURCES_GUARDS,
    read_model_signature,
    source_sql,
    table_columns,
    unpack,
)
from store.store import GameStore
from store.stored import (
    BITE_ME,
    GENESIS,
    GET_BIT,
    CheckResult,
    Damage,
    read_head,
    record_digest,
    rows_digest,
)

__all__ = ["check_store"]

_TABLES = ("games", "violations", "meta", readmodel.TABLE, *readmodel.TOTALS)
_EVENT_TABLES = ("event_kinds", "event_games", "event_runs")  # ``eventlog``; before: events
_SAID = 3  # events that cannot be read, said per game; then how many more


#: A store of fewer games is checked in one process when no number of jobs is given:
#: workers would cost more to start than they save.
SHARED = 2_000


def check_store(
    path: str | Path | None = None,
    jobs: int | None = 1,
    on_game: Callable[[], None] | None = None,
) -> CheckResult:
    """Check the store at ``path`` (opened read-only: nothing is written).

    Finds what ``PRAGMA integrity_check`` finds, and, game by game: events
    changed, added or missing (the hash they were stored under), events that
    cannot be read or do not fold, a games row that does not match its events
    or its chain value, read-model rows that do not match the events, a game
    removed (the chain breaks, or its head in ``meta`` does not match), and
    events, violations or read-model rows left without their game. A file that
    is not a store is a StoreError.

    ``jobs`` worker processes check the games (``importers.workers.in_order``: the
    findings come in the order stored, the same whatever the number; None: one a
    core for a store of ``SHARED`` games or more, else one process). ``on_game()``
    is called after each game (for progress).
    """
    with GameStore(path, create=False, readonly=True) as store:
        try:
            return _Checker(store.db.conn, store.path, jobs, on_game).run()
        except sqlite3.DatabaseError as exc:  # a table gone, a page SQLite cannot read
            raise StoreError(f"{store.path}: the store cannot be checked: {exc}") from None


class _Checker:
    def __init__(
        self,
        conn: sqlite3.Connection,
        path: Path | None = None,
        jobs: int | None = 1,
        on_game: Callable[[], None] | None = None,
    ) -> None:
        self.conn = conn
        self.path = path
        self.jobs = jobs
        self.on_game = on_game
        self.damage: list[Damage] = []
        self.notes: list[str] = []
        self.games = self.events = 0
        self.kinds: eventlog.Kinds | None = None  # None: events in a table (a store from before)
        self.ranged = False  # whether the read model keeps a game's rows by its rowids
        self.sources = False  # whether the store keeps record texts
        self._source_sql: str | None = None  # a game's, in the store's layout
        self.unrecorded = 0  # games stored before their record texts were hashed (m010)
        self.careful = _Careful()

    def run(self) -> CheckResult:
        conn = self.conn
        conn.execute("BEGIN")  # one snapshot, whatever writers do meanwhile
        try:
            for (line,) in conn.execute("PRAGMA integrity_check(20)"):
                if line != "ok":
                    self.damage.append(Damage(None, f"SQLite's integrity_check: {line}"))
            master = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            tables = {name for (name,) in master}
            compact = "event_runs" in tables or "events" not in tables
            if compact:
                self.kinds = eventlog.Kinds()
            needed = (*_TABLES, *(_EVENT_TABLES if compact else ("events",)))
            gone = [t for t in needed if t not in tables]
            if gone:  # nothing to check them against
                self.damage.append(Damage(None, f"table{'s' * (len(gone) != 1)} "
                                          f"{', '.join(gone)} missing"))
                return CheckResult(0, 0, tuple(self.damage))
            signature = conn.execute("SELECT value FROM meta WHERE key = 'read_model'").fetchone()
            self.ranged = signature is not None and signature[0] == read_model_signature()
            columns = table_columns(conn, "games")
            chained = set(CHAIN_COLUMNS) <= columns
            last = GENESIS
            previous: str | None = None
            twice = self._twice()
            self.sources = "sources" in tables
            for row, problems in self._checked(chained, columns):
                self.games += 1
                game_id = str(row["id"])
                if self.on_game is not None:
                    self.on_game()
                if row["hash"] in twice:
                    first = twice[row["hash"]]
                    if first is None:
                        twice[row["hash"]] = game_id
                    else:
                        problems.append(f"it is game {first} stored again (the same hash)")
                if chained:
                    try:
                        problems[:0] = self._link(row, last, previous)
                    except (TypeError, ValueError) as exc:  # as in ``_game``
                        problems[:0] = [f"{_ODD_VALUE}: {why(exc)}"]
                    last = row["chain"] if isinstance(row["chain"], str) else last
                previous = game_id
                self.damage.extend(Damage(game_id, p) for p in problems)
            if chained:
                self._head(last)
                self.damage.extend(guards(conn, GUARDS if compact else LEGACY_GUARDS))
            else:
                self.notes.append(
                    "the chain of games was not checked: the store predates it (any "
                    "command but check adds it, opening the store)"
                )
            if self.unrecorded:
                self.notes.append(
                    f"{self.unrecorded} game{'s' * (self.unrecorded != 1)} stored before their "
                    "record texts were hashed (m010_record): their texts and their violations' "
                    "lines, columns and rulings are guarded by the triggers alone"
                )
            self.damage.extend(strays(conn, self.kinds is not None, self.sources))
            if "history" in tables:
                self.damage.extend(history(conn))
            else:
                self.notes.append(
                    "the history of revisions was not checked: the store predates it (any "
                    "command but check adds it, opening the store)"
                )
            self.damage.extend(totals(conn, "history" in tables))
            if self.sources:  # a store from before keeps no record texts
                self.damage.extend(guards(conn, SOURCES_GUARDS, "the record texts"))
        finally:
            conn.execute("COMMIT")
        return CheckResult(
            self.games, self.events, tuple(self.damage), tuple(self.notes), chained
        )

    def _twice(self) -> dict[Any, str | None]:
        """The hashes more than one games row holds (the writer stores a game once, by
        its id: ``m009_no_hash_index``), each to be mapped to the first game of it."""
        found = self.conn.execute("SELECT hash FROM games GROUP BY hash HAVING COUNT(*) > 1")
        return {digest: None for (digest,) in found}

    def _checked(
        self, chained: bool, columns: set[str]
    ) -> Iterator[tuple[dict[str, Any], list[str]]]:
        """Every games row and what its game's own check finds (``_game``), in the order
        stored: here, or in worker processes, each with a connection of its own, which
        check the games stored up to the last this one sees (the same games whatever
        a writer adds meanwhile)."""
        from importers.workers import in_order, workers_for  # multiprocessing: when needed

        jobs = self.jobs
        if jobs is None:
            games = self.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
            jobs = workers_for(None) if games >= SHARED else 1
        if jobs <= 1 or self.path is None:
            for row in self._rows(chained, columns):
                yield row, self._game(str(row["id"]), row)
            return
        upto = self.conn.execute("SELECT MAX(rowid) FROM games").fetchone()[0] or 0
        given = _Given(self.path, chained, frozenset(columns), upto, self.ranged, self.sources,
                       self.kinds is not None)
        found = in_order(functools.partial(_shared_rows, given), _shared_game, workers_for(jobs),
                         mark=_row_mark)
        for row, problems, events, unrecorded in found:
            self.events += events
            self.unrecorded += unrecorded
            yield row, problems

    def _rows(
        self, chained: bool, columns: set[str] | frozenset[str], upto: int | None = None
    ) -> Iterator[dict[str, Any]]:
        """Every games row as a dict (``game``: Get Bit!'s in a store from before
        ``m007_game``; ``record``: None before ``m010_record``), up to rowid ``upto``."""
        names = (*GAME_COLUMNS, *CHAIN_COLUMNS) if chained else GAME_COLUMNS
        names = (*names, *(c for c in (GAME, RECORD) if c in columns), "rowid")
        cursor = self.conn.execute(
            f"SELECT {', '.join(names)} FROM games"
            + ("" if upto is None else f" WHERE rowid <= {int(upto)}") + " ORDER BY rowid"
        )
        for values in cursor:
            row = dict(zip(names, values, strict=True))
            row.setdefault(GAME, GET_BIT)
            row.setdefault(RECORD, None)
            yield row

    # -- the chain ---------------------------------------------------------------

    def _link(self, row: dict[str, Any], last: str, previous: str | None) -> list[str]:
        problems = []
        if row["prev"] != last:
            if previous is None:
                problems.append("a game stored before it, the first, is missing")
            else:
                problems.append(f"a game stored between {previous} and it is missing")
        if row["chain"] != row_chain(row):
            problems.append("its games row was changed (it does not match its chain value)")
        return problems

    def _head(self, last: str) -> None:
        found = self.conn.execute("SELECT value FROM meta WHERE key = 'chain'").fetchone()
        head = read_head(found[0] if found else None)
        if head is None:
            self.damage.append(Damage(None, "the chain's head is missing from meta"))
            return
        count, chain = head
        if count > self.games:
            gone = count - self.games
            self.damage.append(
                Damage(None, f"{gone} game{'s' * (gone != 1)} missing: {count} were stored, "
                       f"{self.games} are there")
            )
        elif count < self.games:
            extra = self.games - count
            self.damage.append(
                Damage(None, f"{extra} game{'s' * (extra != 1)} more than were stored "
                       f"({self.games}, not {count})")
            )
        if chain != last:
            self.damage.append(
                Damage(None, "the last game stored is missing or changed (the chain's head "
                       "does not match the last game)")
            )

    # -- one game ----------------------------------------------------------------

    def _sources(self, game_id: str) -> list[tuple[Any, ...]]:
        """The game's ``sources`` rows (text, size), the first two: one is kept a game."""
        if not self.sources:
            return []
        if self._source_sql is None:  # the store's layout (schema.source_sql)
            self._source_sql = f"{source_sql(self.conn)} LIMIT 2"
        return self.conn.execute(self._source_sql, (game_id,)).fetchall()


    def _game(self, game_id: str, row: dict[str, Any]) -> list[str]:
        """What the check of one game finds. A value of a kind getbit never writes there
        (a text for a round, a number for a text) is damage found in that game, whichever
        step of the check it stops (the compiled build's typed code stops at it where plain
        Python may go on), never a failure of the check."""
        try:
            return self._game_checked(game_id, row)
        except sqlite3.DatabaseError:  # the store, not the game: check_store says so
            raise
        except Exception as exc:
            return [f"{_ODD_VALUE}: {why(exc)}"]

    def _game_checked(self, game_id: str, row: dict[str, Any]) -> list[str]:
        conn = self.conn
        problems = []
        if not isinstance(row["hash"], str) or not row["hash"].startswith(game_id):
            problems.append("its id is not the start of its hash")
        decoded = eventlog.game_rows(conn, self.kinds, game_id)
        stored = decoded.rows
        problems.extend(decoded.unread[:_SAID])
        self.events += len(stored)
        held = row["events"] if isinstance(row["events"], int) else -1
        gaps = seq_gaps(stored, held)
        if gaps is not None:
            problems.append(f"events: {gaps}")
        rows = conn.execute(
            'SELECT line, "column", round, code, rule, message FROM violations '
            "WHERE game_id = ? ORDER BY rowid",
            (game_id,),
        ).fetchall()
        violations = [(code, round_, message) for _, _, round_, code, _, message in rows]
        found: list[tuple[Any, ...]] | None = None  # its sources rows, read when needed
        if row[RECORD] is None:
            self.unrecorded += 1
        elif row[RECORD] != _record(found := self._sources(game_id), rows):
            problems.append(
                "its record text or its violations' lines, columns or rulings are not those "
                "it was stored with (they do not hash to its record)"
            )
        if len(violations) != row["violations"]:
            problems.append(f"{len(violations)} violations stored, {row['violations']} expected")
        tags = _json(row["tags"], dict)
        swimmers = _json(row["swimmers"], list)
        if tags is None or swimmers is None:
            problems.append("its tags or swimmers are not the JSON they were stored as")
            tags = tags or {}
        digest = rows_digest((r[1:] for r in stored), tags.items(), violations)
        if not stored and digest != row["hash"]:  # no events: its record text is hashed too,
            # since stores of after 7 December 2026 (a game stored before hashes without it)
            text = _text(self._sources(game_id) if found is None else found)
            digest = rows_digest((), tags.items(), violations, text)
        bite = is_bite_stream([r[1] for r in stored])
        if bite != (row[GAME] == BITE_ME):
            problems.append(f"its games row does not match its events (game: {row[GAME]})")
        events, unread = self.careful.decode(stored, bite)
        problems.extend(unread)
        if digest != row["hash"]:
            problems.append(
                "its events or violations are not those it was stored with "
                "(they do not hash to its hash)"
            )
            return problems  # what they no longer match follows from it
        if unread:
            return problems
        expected: dict[str, Any] = {"events": len(stored), "violations": len(violations)}
        if bite:
            problems.extend(self._bite(game_id, events, expected, row, tags, len(violations)))
        elif events:
            problems.extend(self._fold(game_id, events, expected, row, tags, len(violations)))
        else:
            expected.update(status="invalid", winner=None, rounds=0, variant=None)
            problems.extend(self._read_model(row, []))
        changed = [k for k, v in expected.items() if row[k] != v]
        if changed:
            problems.append(
                f"its games row does not match its events ({', '.join(changed)})"
            )
        return problems

    def _fold(
        self,
        game_id: str,
        events: list[Event],
        expected: dict[str, Any],
        row: dict[str, Any],
        tags: dict[str, Any],
        violations: int,
    ) -> list[str]:
        setup = events[0]
        if not isinstance(setup, GameStarted):
            return [f"its events start with {setup.TYPE}, not game-started"]
        try:
            state = fold(events)
            status = readmodel.game_status(violations == 0, state.finished)
            rows = readmodel.row_tuples(game_id, events, status, dict(setup.tags))
        except Exception as exc:  # events that read but do not make a game
            return [f"its events do not fold: {why(exc)}"]
        ended = next((e for e in reversed(events) if isinstance(e, GameEnded)), None)
        expected.update(
            status=status,
            winner=ended.winner if ended is not None else None,
            rounds=events[-1].round,
            variant=setup.variant,
        )
        problems = []
        if tags != dict(setup.tags) or _json(row["swimmers"], list) != list(setup.line):
            problems.append("its games row does not match its events (tags, swimmers)")
        problems.extend(self._read_model(row, rows))
        return problems

    def _bite(
        self,
        game_id: str,
        events: list[Any],
        expected: dict[str, Any],
        row: dict[str, Any],
        tags: dict[str, Any],
        violations: int,
    ) -> list[str]:
        """:meth:`_fold` for a game of "Come on! Bite me!" (``store.bite``): no read-model rows."""
        try:
            found = expected_row(events, violations)
        except Exception as exc:  # events that read but do not make a game
            return [f"its events do not fold: {why(exc)}"]
        problems = []
        if tags != found.pop("tags") or _json(row["swimmers"], list) != found.pop("swimmers"):
            problems.append("its games row does not match its events (tags, swimmers)")
        expected.update(found)
        problems.extend(self._read_model(row, []))
        return problems

    def _read_model(self, row: dict[str, Any], rows: list[tuple[Any, ...]]) -> list[str]:
        if self.ranged:  # a game's rows are in its range of rowids (schema.row_ids)
            first = row["rowid"] * ROW_SLOTS
            found = self.conn.execute(
                f"SELECT * FROM {readmodel.TABLE} WHERE rowid BETWEEN ? AND ? ORDER BY rowid",
                (first, first + ROW_SLOTS - 1),
            ).fetchall()
        else:  # a read model from before (made again on opening): keyed by game id
            found = self.conn.execute(
                f"SELECT * FROM {readmodel.TABLE} WHERE game_id = ? ORDER BY rowid",
                (row["id"],),
            ).fetchall()
        if found != rows:
            said = f"its read-model rows ({readmodel.TABLE}) do not match its events"
            return [f"{said} (getbit rebuild makes them again)"]
        return []

    # -- the totals read model ----------------------------------------------------

def _record(found: list[tuple[Any, ...]], violations: list[tuple[Any, ...]]) -> str:
    """``stored.record_digest`` of a game as it is stored now, ``found`` its ``sources``
    rows."""
    if len(found) > 1:
        return "two record texts"  # matches no digest
    if found and not isinstance(found[0][0], bytes):
        return "not bytes"  # matches no digest: kept as a BLOB, always
    source = (found[0][0], found[0][1]) if found else None
    return record_digest(source, violations)


def _text(found: list[tuple[Any, ...]]) -> bytes | None:
    """A game's record text as imported, ``found`` its ``sources`` rows (None: none kept,
    or it cannot be read)."""
    if not found or not isinstance(found[0][0], bytes):
        return None
    return unpack(*found[0])  # None when damaged: its record digest says so


@attrs.frozen
class _Given:
    """What a worker of a check is told: the store, what the one process found of its
    tables, and the last game to check."""

    path: Path
    chained: bool
    columns: frozenset[str]
    upto: int
    ranged: bool
    sources: bool
    compact: bool


#: The worker's own checker, on its own connection (in a worker process only).
_WORKER: list[_Checker] = []


def _shared_rows(given: _Given, share: object) -> Iterator[dict[str, Any]]:
    """Every games row up to ``given.upto``, read in a worker (``in_order``: each worker
    reads them all and checks its share), on a connection of its own, in one snapshot."""
    with GameStore(given.path, create=False, readonly=True) as store:
        checker = _Checker(store.db.conn, given.path)
        checker.ranged, checker.sources = given.ranged, given.sources
        checker.kinds = eventlog.Kinds() if given.compact else None
        _WORKER[:] = [checker]
        try:
            checker.conn.execute("BEGIN")
            yield from checker._rows(given.chained, given.columns, given.upto)
            checker.conn.execute("COMMIT")
        except sqlite3.DatabaseError as exc:  # as the one process says it (check_store)
            raise StoreError(f"{given.path}: the store cannot be checked: {exc}") from None


def _shared_game(row: dict[str, Any]) -> tuple[dict[str, Any], list[str], int, int]:
    """A worker's check of one game: its row, what it finds, its events and whether it
    was stored before its record text was hashed."""
    checker = _WORKER[0]
    events, unrecorded = checker.events, checker.unrecorded
    try:
        problems = checker._game(str(row["id"]), row)
    except sqlite3.DatabaseError as exc:  # as the one process says it (check_store)
        raise StoreError(f"{checker.path}: the store cannot be checked: {exc}") from None
    return row, problems, checker.events - events, checker.unrecorded - unrecorded


def _row_mark(row: dict[str, Any]) -> tuple[Any, Any]:
    """What the workers must agree a row is: its rowid and its id."""
    return row["rowid"], row["id"]


#: What a game's check says of a value of a kind getbit never writes where it is.
_ODD_VALUE = "it holds a value of a kind getbit never writes there (changed since it was stored)"


#: Payload texts read the careful way already, at most (``_Careful``).
_CAREFUL = 20_000
#: Events whose texts a store seldom holds twice (a reveal names every swimmer's card; a
#: set-up and an end, the whole line): not kept, so they leave room for those it does.
_SELDOM_TWICE = frozenset((CardsRevealed.TYPE, GameStarted.TYPE, GameEnded.TYPE))


class _Careful:
    """The events of stored payloads read the careful way (the converter's checks), each
    payload text once: reading one is a pure function of its type, version and text, and
    of its round, which is checked as the converter checks it (a whole number). A text
    read before is made again at another round from an event it made (``attrs.evolve``),
    once; at a round it was read at, that event serves as it is (events are frozen
    values). Most of a store's payloads are texts it holds many times (a swimmer choosing
    a card, moving to the front): ``docs/architecture.md``, "Speed tricks"."""

    def __init__(self) -> None:
        self.read: dict[tuple[bool, Any, Any, str], dict[int, Any]] = {}

    def decode(self, stored: list[tuple[Any, ...]], bite: bool) -> tuple[list[Any], list[str]]:
        """The events of a game's rows (``bite``: of "Come on! Bite me!"); what cannot be
        read."""
        read = bite_event_from_payload if bite else event_from_payload
        field = "turn" if bite else "round"
        known = self.read
        events: list[Any] = []
        unread: list[str] = []
        for seq, tag, version, round_, payload in stored:
            if payload is None:  # its element could not be read: said already
                continue
            key = (bite, tag, version, payload)
            rounds = known.get(key)  # the events this text made, by round
            if rounds is not None and type(round_) is int:  # the converter's whole number
                event = rounds.get(round_)
                if event is None:
                    event = rounds[round_] = attrs.evolve(
                        next(iter(rounds.values())), **{field: round_}
                    )
                events.append(event)
                continue
            try:
                data = json.loads(payload)
            except (ValueError, TypeError):
                unread.append(f"event {seq} ({_short(tag)}): its payload is not JSON")
                continue
            if not isinstance(data, dict):
                unread.append(f"event {seq} ({_short(tag)}): its payload is not a JSON object")
                continue
            try:
                event = read(tag, version, round_, data)
            except Exception as exc:
                unread.append(f"event {seq} ({_short(tag)}) is not an event: {why(exc)}")
                continue
            if isinstance(payload, str) and type(round_) is int and tag not in _SELDOM_TWICE:
                if len(known) >= _CAREFUL:
                    known.clear()
                known[key] = {round_: event}
            events.append(event)
        if len(unread) > _SAID:
            more = len(unread) - _SAID
            unread[_SAID:] = [f"and {more} more event{'s' * (more != 1)} that cannot be read"]
        return events, unread


def _json(text: Any, kind: type) -> Any:
    try:
        value = json.loads(text)
    except (ValueError, TypeError):
        return None
    return value if isinstance(value, kind) else None


def _short(value: Any) -> str:
    return str(value)[:40]
