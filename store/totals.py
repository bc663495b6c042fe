"""The totals read model in SQL (``readmodel.TOTALS``): a tally of games added to
it as they are stored, the standings worked out again when stale, and the
totals read back for a report."""

from __future__ import annotations

import itertools
import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from operator import itemgetter
from typing import Any

from getbit_events.errors import StoreError
from store import readmodel
from store.schema import DROPPED, GAME, live, upsert
from store.stored import GET_BIT

__all__ = [
    "OrderedResults",
    "add_tally",
    "fold_standings",
    "left_out_counts",
    "read_totals",
    "tally_rows",
]

_FIRST, _SECOND = itemgetter(0), itemgetter(1)
_UPSERTS = {t: upsert(t) for t in readmodel.TOTALS if t != "standings"}
#: Results a tally holds at most before they go to the temporary table (``OrderedResults``).
HELD = 10_000


class OrderedResults:
    """Valid games' results (``Tally.results``) for the standings, handed back in their
    order (``readmodel.order_key``) without all of them held: a tally's results move
    here ``HELD`` at a time, into a temporary table of the connection (SQLite's own
    temporary storage, never the store's file: ``getbit check`` writes nothing to it; a
    file, as SQLite keeps temporary tables by default, TEMP_STORE=1: its ``temp_store``
    cannot be changed inside the transaction a check reads in), and SQLite sorts them,
    in memory it bounds. Folding the standings of a store of
    any size (``getbit check``, ``rebuild``, standings worked out again) holds about
    as much as a few thousand games' results, not a million's (some 700 MB)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        conn.execute("DROP TABLE IF EXISTS temp.getbit_results")
        conn.execute(
            "CREATE TEMP TABLE getbit_results (ord TEXT NOT NULL, game_id TEXT NOT NULL, "
            "dated INTEGER NOT NULL, players TEXT NOT NULL)"
        )

    def take(self, tally: readmodel.Tally, held: int | None = None) -> None:
        """Move ``tally``'s results here once it holds ``held`` (``HELD``) or more."""
        results = tally.results
        if len(results) < (HELD if held is None else held) or not results:
            return
        self.conn.executemany(
            "INSERT INTO temp.getbit_results VALUES (?, ?, ?, ?)",
            [(order, game_id, dated, json.dumps(players)) for order, game_id, dated, players
             in results],
        )
        results.clear()

    def __iter__(self) -> Iterator[readmodel.Result]:
        cursor = self.conn.execute(
            "SELECT ord, game_id, dated, players FROM temp.getbit_results ORDER BY ord"
        )
        for order, game_id, dated, players in cursor:
            yield order, game_id, bool(dated), [(k, r, w) for k, r, w in json.loads(players)]

    def close(self) -> None:
        self.conn.execute("DROP TABLE IF EXISTS temp.getbit_results")

    def __enter__(self) -> OrderedResults:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def add_tally(
    conn: sqlite3.Connection,
    tally: readmodel.Tally,
    results: list[readmodel.Result] | None = None,
) -> None:
    """Add ``tally`` to the totals tables and fold ``results`` (by default the
    tally's) into the standings, inside a write.

    Games that come after every game folded in so far are folded in at once;
    one that comes before marks the standings stale, and they are worked out
    again, from ``game_swimmers``, the next time they are read.
    """
    results = tally.results if results is None else results
    for table, counts in (
        ("player_totals", tally.players),
        ("player_names", tally.names),
        ("pair_totals", tally.pairs),
        ("game_totals", tally.games),
    ):
        conn.executemany(_UPSERTS[table], [(*k, *v) for k, v in counts.items()])
    if not results:
        return
    state = conn.execute("SELECT value FROM meta WHERE key = 'standings'").fetchone()
    if state is not None and state[0] == "stale":
        return
    results.sort(key=_FIRST)
    if state is not None and results[0][0] <= json.loads(state[0])[0]:
        conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('standings', 'stale')")
        return
    keys = sorted({key for *_, result in results for key, _, _ in result})
    known = conn.execute(
        f"SELECT * FROM standings WHERE player_key IN ({', '.join('?' for _ in keys)})", keys
    )
    conn.executemany(
        f"INSERT OR REPLACE INTO standings VALUES (?{', ?' * len(readmodel.STANDING)})",
        _folded({row[0]: row[1:] for row in known}, results),
    )
    last = json.dumps([results[-1][0], results[-1][1]])
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('standings', ?)", (last,))


def _folded(
    known: dict[str, Any], results: list[readmodel.Result]
) -> list[tuple[Any, ...]]:
    """The standings rows of the players of ``results`` (sorted by order), folded in
    after what ``known`` holds of them, sorted by player key."""
    standings = readmodel.Standings(known)
    standings.add_all(results)
    keys = sorted({key for *_, result in results for key, _, _ in result})
    return [(key, *standings.players[key]) for key in keys]


def read_totals(
    conn: sqlite3.Connection,
    write: Callable[[], AbstractContextManager[object]] | None,
    player_key: str | None = None,
) -> readmodel.Totals:
    """The totals read model of valid games, for every player or for the games
    of one (``player_key``): what a report of those needs besides the rows.
    Stale standings are worked out again first, in a ``write()``; with no ``write``
    (a store that can only be read), in memory for this report."""
    worked_out = None
    if write is not None:
        _refresh_standings(conn, write)
    one = "" if player_key is None else " WHERE player_key = ?"
    key = () if player_key is None else (player_key,)
    places = (
        "SELECT swimmers, start_place, COUNT(*), SUM(won) FROM game_swimmers "
        f"WHERE status = 'valid' AND role != 'shark' AND {live('game_id')}"
    )
    if player_key is not None:
        places += (
            " AND game_id IN (SELECT game_id FROM game_swimmers WHERE player_key = ? "
            "AND status = 'valid' AND role != 'automaton')"
        )
    conn.execute("BEGIN")  # one snapshot: a writer's game is in all of it or in none
    try:
        state = conn.execute("SELECT value FROM meta WHERE key = 'standings'").fetchone()
        if write is None and state is not None and state[0] == "stale":
            worked_out = _standings_again(conn)
            state = None if worked_out is None else (worked_out[1],)
        totals = readmodel.Totals(
            players=conn.execute(f"SELECT * FROM player_totals{one}", key).fetchall(),
            names=conn.execute("SELECT * FROM player_names").fetchall(),
            pairs=conn.execute(
                "SELECT * FROM pair_totals"
                + ("" if player_key is None else " WHERE first = ? OR second = ?"),
                key * 2,
            ).fetchall(),
            games=conn.execute("SELECT * FROM game_totals").fetchall(),
            places=conn.execute(places + " GROUP BY swimmers, start_place", key).fetchall(),
            standings=conn.execute(f"SELECT * FROM standings{one}", key).fetchall()
            if worked_out is None
            else [row for row in worked_out[0] if player_key in (None, row[0])],
            latest=json.loads(state[0])[1] if state is not None else None,
            left_out=left_out_counts(conn),
        )
        odd = _odd_table(totals)
        if odd is not None:
            raise StoreError(
                f"the statistics table {odd} holds a value of a kind getbit never writes "
                "there (changed since it was written): getbit rebuild makes it again; "
                "getbit check says more"
            )
        return totals
    finally:
        conn.execute("COMMIT")


def _odd_table(totals: readmodel.Totals) -> str | None:
    """The first totals table whose rows hold a value of a kind getbit never writes there
    (a text for a count, say): the reports would fail on it, or count it wrongly."""

    def number(value: Any, none: bool = False) -> bool:
        return (value is None and none) or (
            type(value) in (int, float) and value == value  # not NaN
        )

    def counts(rows: list[tuple[Any, ...]], keys: int) -> bool:
        return all(
            all(k is None or isinstance(k, str) or type(k) is int for k in row[:keys])
            and all(type(v) is int for v in row[keys:])
            for row in rows
        )

    if not counts(totals.players, 3):
        return "player_totals"
    if not all(isinstance(r[0], str) and isinstance(r[1], str) and type(r[2]) is int
               and isinstance(r[3], str) for r in totals.names):
        return "player_names"
    if not counts(totals.pairs, 2):
        return "pair_totals"
    if not counts(totals.games, 2):
        return "game_totals"
    for row in totals.standings:
        mu, sigma, *runs, last_order, last_game = row[1:]
        if not (isinstance(row[0], str) and number(mu, True) and number(sigma, True)
                and all(type(v) is int for v in runs)
                and isinstance(last_order, str) and isinstance(last_game, str)):
            return "standings"
    return None


def left_out_counts(conn: sqlite3.Connection) -> tuple[tuple[str, int], ...]:
    """Games of Get Bit! the totals do not hold: superseded or retracted (the
    history), and live games whose set-up broke the rules (no rows to count). The
    games of "Come on! Bite me!" are not Get Bit!'s to leave out."""
    counts = dict.fromkeys(("superseded", "retracted"), 0)
    for why, n in conn.execute(
        f"SELECT d.why, COUNT(*) FROM ({DROPPED}) d JOIN games g ON g.id = d.game_id "
        f"WHERE g.{GAME} = '{GET_BIT}' GROUP BY d.why"
    ):
        counts[why] = n
    broken = conn.execute(
        f"SELECT COUNT(*) FROM games WHERE events = 0 AND {GAME} = '{GET_BIT}' AND {live('id')}"
    )
    return (*counts.items(), ("broken", int(broken.fetchone()[0])))


def _refresh_standings(
    conn: sqlite3.Connection, write: Callable[[], AbstractContextManager[object]]
) -> None:
    """Work the standings out again from ``game_swimmers`` when they are stale."""
    state = conn.execute("SELECT value FROM meta WHERE key = 'standings'").fetchone()
    if state is None or state[0] != "stale":
        return
    with write(), OrderedResults(conn) as ordered:
        tally_rows(conn, "r.status = 'valid'", ordered)
        conn.execute("DELETE FROM standings")
        conn.execute("DELETE FROM meta WHERE key = 'standings'")
        fold_standings(conn, ordered)


def fold_standings(conn: sqlite3.Connection, ordered: OrderedResults) -> None:
    """Fold every result of ``ordered`` into standings that hold none yet and write
    them, with the last game folded in (inside a write)."""
    folded = _standings_of(ordered)
    if folded is None:
        return
    rows, last = folded
    conn.executemany(
        f"INSERT OR REPLACE INTO standings VALUES (?{', ?' * len(readmodel.STANDING)})", rows
    )
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('standings', ?)", (last,))


def _standings_of(ordered: OrderedResults) -> tuple[list[tuple[Any, ...]], str] | None:
    """The standings rows of every result of ``ordered`` folded in order, sorted by player
    key, and the ``meta`` value of the last game folded in (None: no game)."""
    standings = readmodel.Standings()
    last: readmodel.Result | None = None
    for result in ordered:
        standings.add_all((result,))
        last = result
    if last is None:
        return None
    rows = [(key, *standings.players[key]) for key in sorted(standings.players)]
    return rows, json.dumps([last[0], last[1]])


def _standings_again(conn: sqlite3.Connection) -> tuple[list[tuple[Any, ...]], str] | None:
    """Stale standings worked out again, as ``_refresh_standings`` would store them:
    their rows and the ``meta`` value of the last game folded in (None: no game)."""
    with OrderedResults(conn) as ordered:
        tally_rows(conn, "r.status = 'valid'", ordered)
        return _standings_of(ordered)


def tally_rows(
    conn: sqlite3.Connection, where: str = "1", ordered: OrderedResults | None = None
) -> readmodel.Tally:
    """The tally of the ``game_swimmers`` rows of counted games (the history leaves
    them in) that ``where`` also keeps, a game at a time, in the order stored; the
    valid games' results go to ``ordered`` (none kept without it)."""
    cursor = conn.execute(
        f"SELECT g.rowid, r.* FROM {readmodel.TABLE} r JOIN games g ON g.id = r.game_id "
        f"WHERE {where} AND {live('r.game_id')} ORDER BY r.rowid"
    )
    tally = readmodel.Tally()
    for _, group in itertools.groupby(cursor, key=_SECOND):
        rows = list(group)
        tally.add([row[1:] for row in rows], rows[0][0])
        if ordered is not None:
            ordered.take(tally)
        elif len(tally.results) >= HELD:
            tally.results.clear()
    if ordered is not None:
        ordered.take(tally, 0)
    else:
        tally.results.clear()
    return tally
