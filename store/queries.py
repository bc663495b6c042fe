"""What a store can be asked: ``GameStore``'s reads (``Queries``, the class it is made
on), apart from its writes (``store.store``). Every read is one query or a few, and an
SQLite error in it (a table dropped, a damaged page) is a StoreError naming the store."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import sqlite_utils

from biteme.events import BiteEvent
from getbit_events.errors import InputError, StoreError
from getbit_events.events import Event
from importers.wire import trusted_bite_event
from store import eventlog, readmodel, revisions
from store.rows import (
    damage_of,
    read_events,
    read_streams,
    reading,
    reading_each,
    stored_game,
)
from store.schema import GAME, live, quote, source_sql, unpack
from store.stored import BITE_ME, Damage, HistoryEntry, StoredGame, StoredViolation
from store.totals import read_totals

__all__ = ["HASH_LENGTH", "PLAYED", "Queries"]

#: a game's hash: SHA-256 in hex (its id is the start of it)
HASH_LENGTH = 64

#: The ids of the games a player played, as the player (``player_key``) or as one of
#: a player's swimmers (a two-player game's), by name, ignoring case: both parameters
#: are the name casefolded (``casefold``: ``opening.add_functions``).
PLAYED = (
    f"SELECT game_id FROM {readmodel.TABLE} WHERE player_key = ? "
    "OR (swimmer != name AND casefold(swimmer) = ?)"
)


class Queries:
    """The reads of a store (``GameStore`` is one): :meth:`games`, :meth:`game`,
    :meth:`events`, :meth:`streams`, :meth:`violations`, :meth:`history`,
    :meth:`dropped`, :meth:`left_out`, :meth:`source`, :meth:`swimmer_rows`,
    :meth:`swimmer_tuples`, :meth:`totals`, :meth:`count`, :meth:`table_rows`.

    What they read through, ``GameStore`` opens: its file (``path``), its connection
    and the sqlite-utils database over it, the kinds its events are written with
    (``_log``), and how its record texts are kept (``_source``, worked out once)."""

    path: Path
    db: sqlite_utils.Database
    readonly: bool
    _conn: sqlite3.Connection
    _log: eventlog.Log
    _compact: bool | None  # whether the events are kept compactly (None: not asked yet)
    _source: str | None  # the SQL of a game's record text (None: not asked yet)

    def _write(self) -> AbstractContextManager[sqlite3.Connection]:
        """One write transaction (``GameStore._write``): the totals are made again in
        one when they are stale."""
        raise NotImplementedError

    @reading
    def count(self, status: str | None = None, game: str | None = None) -> int:
        """How many games are stored (with ``status``, of ``game``, when given)."""
        where = [(f"{c} = ?", v) for c, v in (("status", status), (GAME, game)) if v is not None]
        sql = "SELECT COUNT(*) FROM games" + (
            " WHERE " + " AND ".join(w for w, _ in where) if where else ""
        )
        return int(self._conn.execute(sql, [v for _, v in where]).fetchone()[0])

    @reading_each
    def games(
        self,
        *,
        player: str | None = None,
        status: str | None = None,
        on_damaged: Callable[[Damage], None] | None = None,
        everything: bool = False,
        game: str | None = None,
    ) -> Iterator[StoredGame]:
        """Stored games in import order; ``player`` matches a swimmer or player (a
        seat of "Come on! Bite me!"), ignoring case; ``game``: of that game only.

        Superseded and retracted games (:meth:`dropped`) are left out, unless
        ``everything``. A games row that cannot be read is a StoreError naming the
        game, or, given ``on_damaged``, is handed to it and left out.
        """
        where, params = [] if everything else [live("id")], []
        if status is not None:
            where.append("status = ?")
            params.append(status)
        if game is not None:
            where.append(f"{GAME} = ?")
            params.append(game)
        if player is not None:  # a game with no read-model rows: its seats, below
            where.append(f"(id IN ({PLAYED}) OR {GAME} = '{BITE_ME}')")
            params.extend([player.casefold(), player.casefold()])
        sql = "SELECT * FROM games"
        if where:
            sql += " WHERE " + " AND ".join(where)
        for row in self.db.query(sql + " ORDER BY rowid", params):
            try:
                found = stored_game(row)
            except StoreError as exc:
                if on_damaged is None:
                    raise
                on_damaged(Damage(str(row.get("id")), damage_of(exc)))
                continue
            if player is not None and found.game == BITE_ME and player.casefold() not in {
                seat.casefold() for seat in found.swimmers
            }:
                continue
            yield found

    @reading
    def game(self, ref: str) -> StoredGame:
        """The game whose id is ``ref`` or starts with it, or whose hash starts with it
        (the whole hash, say); InputError when none or several."""
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
            return stored_game(exact[0])
        if not found and len(ref) <= HASH_LENGTH:  # its hash, or more of it than its id
            starts = [ref[:n] for n in range(1, len(ref))]
            marks = ", ".join("?" * len(starts))
            found = [
                r
                for r in self.db.query(f"SELECT * FROM games WHERE id IN ({marks})", starts)
                if r["hash"].startswith(ref)
            ]
        if not found:
            raise InputError(f"no game {ref!r} in {self.path} (see 'getbit games')")
        if len(found) > 1:
            ids = ", ".join(r["id"] for r in found[:5])
            raise InputError(f"{ref!r} could be any of {ids} ...; give more of the id")
        return stored_game(found[0])

    @reading
    def events(self, game_id: str) -> list[Event]:
        """The game's complete event stream, set-up first (empty for an invalid set-up).

        A StoreError names the game when its stored events are damaged: one that
        cannot be read, a seq missing or extra, or not as many as the game holds.
        """
        return read_events(self._conn, self._kinds(), game_id)

    @reading
    def bite_events(self, game_id: str) -> list[BiteEvent]:
        """:meth:`events` of a stored game of "Come on! Bite me!" (``StoredGame.game``)."""
        return read_events(self._conn, self._kinds(), game_id, trusted_bite_event, BITE_ME)

    @reading_each
    def streams(
        self, on_damaged: Callable[[Damage], None] | None = None
    ) -> Iterator[tuple[str, list[Event]]]:
        """Every stored game's id and event stream, a game at a time, in the order stored.

        Games whose set-up broke the rules have no events and are not among them.
        A game whose events are damaged (see :meth:`events`) is a StoreError, or,
        given ``on_damaged``, is handed to it and left out.
        """
        return read_streams(self._conn, self._kinds(), on_damaged)

    def _kinds(self) -> eventlog.Kinds | None:
        """The kinds to read events with; None for a store from before (read-only)."""
        if self._compact is None:
            self._compact = eventlog.compact_tables(self._conn)
        return self._log.kinds if self._compact else None

    @reading
    def history(self, game_id: str) -> list[HistoryEntry]:
        """The history facts naming the game: what supersedes it or what it
        supersedes, its retraction; in the order appended."""
        return revisions.entries(self._conn, game_id)

    @reading
    def dropped(self) -> dict[str, str]:
        """The games the history leaves out of statistics and listings, with why
        (``superseded`` or ``retracted``)."""
        return revisions.dropped(self._conn)

    @reading
    def left_out(self) -> dict[str, int]:
        """How many stored games statistics leave out besides the rows' own
        statuses: ``superseded``, ``retracted``, ``broken`` (a set-up that broke the
        rules, so no rows)."""
        return revisions.left_out(self._conn)

    @reading
    def source(self, game_id: str) -> bytes | None:
        """The game's record text as imported, byte for byte (None: none was kept)."""
        if self._source is None:  # the store's layout (migrations.m011_by_number), once
            self._source = source_sql(self._conn) or ""
        row = self._conn.execute(self._source, (game_id,)).fetchone() if self._source else None
        if row is None:
            return None
        unpacked = unpack(bytes(row[0]), row[1])
        if unpacked is None:
            raise StoreError(
                f"{self.path}: game {game_id}: its record text is damaged (it does not "
                "unpack to the length stored with it); run getbit check"
            )
        return unpacked

    @reading
    def violations(self, game_id: str) -> list[StoredViolation]:
        """The violations kept with the game, in record order; a ``too-many-violations``
        last, as validate says it (it shares its line with the last one reported)."""
        rows = self._conn.execute(
            'SELECT line, "column", round, code, rule, message FROM violations WHERE '
            "game_id = ? ORDER BY code = 'too-many-violations', line, \"column\", rowid",
            (game_id,),
        )
        return [StoredViolation(*r) for r in rows]

    @reading_each
    def swimmer_rows(self, /, **filters: Any) -> Iterator[dict[str, Any]]:
        """Read-model rows (``readmodel.COLUMNS``) whose columns equal ``filters``,
        of the games the history leaves in (:meth:`dropped`: not superseded or retracted).

        ``swimmer_rows(player_key="anne", status="valid")``; a name not in the
        columns is a ValueError. Rows come in import order, then starting place.
        """
        unknown = set(filters) - set(readmodel.COLUMNS)
        if unknown:
            raise ValueError(f"not read-model columns: {', '.join(sorted(unknown))}")
        where = " AND ".join([*(f"r.{quote(k)} = ?" for k in filters), live("r.game_id")])
        sql = (
            f"SELECT r.* FROM {readmodel.TABLE} r JOIN games g ON g.id = r.game_id "
            f"WHERE {where} ORDER BY g.rowid, r.role = 'shark', r.start_place"
        )
        yield from self.db.query(sql, list(filters.values()))

    @reading
    def swimmer_tuples(self, columns: Sequence[str]) -> Iterator[tuple[Any, ...]]:
        """Every read-model row of the games the history leaves in, as a plain
        tuple of ``columns``, in the order stored (a game's rows together): the
        quick way to read them all."""
        unknown = set(columns) - set(readmodel.COLUMNS)
        if unknown:
            raise ValueError(f"not read-model columns: {', '.join(sorted(unknown))}")
        names = ", ".join(quote(c) for c in columns)
        return self._conn.execute(
            f"SELECT {names} FROM {readmodel.TABLE} WHERE {live('game_id')} ORDER BY rowid"
        )

    @reading
    def totals(self, player_key: str | None = None) -> readmodel.Totals:
        """The totals read model of valid games, for every player or for the games
        of one (``player_key``): what a report of those needs besides the rows."""
        return read_totals(self._conn, None if self.readonly else self._write, player_key)

    @reading
    def table_rows(self, table: str) -> list[dict[str, Any]]:
        """Every row of one of the store's tables, for tests and checks (sorted)."""
        known = {"games", "events", "violations", "history", "sources", "event_kinds",
                 "event_games", "event_runs", readmodel.TABLE, *readmodel.TOTALS}
        if table not in known:
            raise ValueError(f"not a store table: {table}")
        return sorted(self.db.query(f"SELECT * FROM {table}"), key=repr)
