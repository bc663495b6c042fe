"""The read model made again from the events (``GameStore.rebuild``)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

from getbit_events.events import Event
from store import readmodel
from store.rows import CHANGED_ROW, row_chain, why
from store.schema import row_ids
from store.stored import Damage, RebuildResult
from store.totals import OrderedResults, add_tally, fold_standings

__all__ = ["rebuild_read_model"]


def rebuild_read_model(
    conn: sqlite3.Connection,
    streams: Callable[[Callable[[Damage], None]], Iterator[tuple[str, list[Event]]]],
    insert_row: str,
    dropped: dict[str, str],
    on_game: Callable[[], None] | None = None,
) -> RebuildResult:
    """Fill the (new, empty) read model from every game's ``streams``, inside a write.

    A damaged game (events that cannot be read, or a games row changed since it was
    stored: it no longer matches its chain value), or one whose events do not fold,
    is left out and said in ``RebuildResult.skipped``; the events are not hashed
    again (``getbit check`` does); ``dropped`` games (superseded, retracted) get rows
    but are not counted in the totals. ``on_game()`` is called after each game
    with events (for progress).
    """
    games = events = rows = 0
    skipped: list[Damage] = []
    info = _GamesRows(conn)
    batch: list[tuple[Any, ...]] = []
    tally = readmodel.Tally()
    ordered = OrderedResults(conn)  # the valid games' results, for the standings
    for game_id, stream in streams(skipped.append):
        found = info.row(game_id)
        if found is None:
            skipped.append(Damage(game_id, "its events are stored but its game is not"))
            continue
        status, tags, seq, changed = found
        if changed:
            skipped.append(Damage(game_id, CHANGED_ROW))
            continue
        try:
            game = readmodel.row_tuples(game_id, stream, status, json.loads(tags))
        except Exception as exc:  # events that read but do not make a game
            skipped.append(Damage(game_id, f"its events do not fold: {why(exc)}"))
            continue
        if game and game_id not in dropped:  # the history leaves it out
            tally.add(game, seq)
            ordered.take(tally)
        batch.extend(row_ids(seq, game))
        games += 1
        events += len(stream)
        if on_game is not None:
            on_game()
        if len(batch) >= 5000:
            rows += len(batch)
            conn.executemany(insert_row, batch)
            batch = []
    rows += len(batch)
    conn.executemany(insert_row, batch)
    ordered.take(tally, 0)
    add_tally(conn, tally)  # the totals: its results are in ``ordered``
    fold_standings(conn, ordered)
    ordered.close()
    return RebuildResult(games, events, rows, tuple(skipped))


class _GamesRows:
    """What a rebuild needs of a game's games row (status, tags, rowid, whether the row
    was changed since it was stored: it no longer matches its chain value), read by
    its id as its stream comes, so a store of any size is rebuilt without every row
    held (about 400 bytes a game, when they were read first)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def row(self, game_id: str) -> tuple[str, str, int, bool] | None:
        """The games row of ``game_id``; None when there is none (its events are strays)."""
        cursor = self.conn.execute("SELECT rowid AS seq, * FROM games WHERE id = ?", (game_id,))
        names = [d[0] for d in cursor.description]
        values = cursor.fetchone()
        if values is None:
            return None
        row = dict(zip(names, values, strict=True))
        changed = row["chain"] is not None and row["chain"] != row_chain(row)
        return row["status"], row["tags"], row["seq"], changed
