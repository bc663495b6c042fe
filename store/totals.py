"""The totals read model in SQL (``readmodel.TOTALS``): a tally of games added to
it as they are stored, the standings worked out again when stale, and the
totals read back for a report."""

from __future__ import annotations

import itertools
import json
import sqlite3
from collections.abc import Callable
from contextlib import AbstractContextManager
from operator import itemgetter
from typing import Any

from store import readmodel
from store.schema import DROPPED, GAME, live, upsert
from store.stored import GET_BIT

__all__ = ["add_tally", "left_out_counts", "read_totals", "tally_rows"]

_FIRST, _SECOND = itemgetter(0), itemgetter(1)
_UPSERTS = {t: upsert(t) for t in readmodel.TOTALS if t != "standings"}


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
            standings=conn.execute(f"SELECT * FROM standings{one}", key).fetchall()
            if worked_out is None
            else [row for row in worked_out[0] if player_key in (None, row[0])],
            latest=json.loads(state[0])[1] if state is not None else None,
            left_out=left_out_counts(conn),
        )
    finally:
        conn.execute("COMMIT")


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
    with write():
        conn.execute("DELETE FROM standings")
        conn.execute("DELETE FROM meta WHERE key = 'standings'")
        tally = tally_rows(conn, "r.status = 'valid'")
        add_tally(conn, readmodel.Tally(), tally.results)


def _standings_again(conn: sqlite3.Connection) -> tuple[list[tuple[Any, ...]], str] | None:
    """Stale standings worked out again, as ``_refresh_standings`` would store them:
    their rows and the ``meta`` value of the last game folded in (None: no game)."""
    results = tally_rows(conn, "r.status = 'valid'").results
    if not results:
        return None
    results.sort(key=_FIRST)
    last = json.dumps([results[-1][0], results[-1][1]])
    return _folded({}, results), last


def tally_rows(conn: sqlite3.Connection, where: str = "1") -> readmodel.Tally:
    """The tally of the ``game_swimmers`` rows of counted games (the history leaves
    them in) that ``where`` also keeps, a game at a time, in the order stored."""
    cursor = conn.execute(
        f"SELECT g.rowid, r.* FROM {readmodel.TABLE} r JOIN games g ON g.id = r.game_id "
        f"WHERE {where} AND {live('r.game_id')} ORDER BY r.rowid"
    )
    tally = readmodel.Tally()
    for _, group in itertools.groupby(cursor, key=_SECOND):
        rows = list(group)
        tally.add([row[1:] for row in rows], rows[0][0])
    return tally
