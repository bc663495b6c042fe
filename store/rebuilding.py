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
from store.totals import add_tally

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
    info: dict[str, tuple[str, str, int]] = {}
    changed: set[str] = set()  # games rows changed since they were stored: not the games'
    cursor = conn.execute("SELECT rowid AS seq, * FROM games")
    names = [d[0] for d in cursor.description]
    for values in cursor:
        row = dict(zip(names, values, strict=True))
        if row["chain"] is not None and row["chain"] != row_chain(row):
            changed.add(row["id"])
        info[row["id"]] = (row["status"], row["tags"], row["seq"])
    batch: list[tuple[Any, ...]] = []
    tally = readmodel.Tally()
    for game_id, stream in streams(skipped.append):
        if game_id in changed:
            skipped.append(Damage(game_id, CHANGED_ROW))
            continue
        status, tags, seq = info[game_id]
        try:
            game = readmodel.row_tuples(game_id, stream, status, json.loads(tags))
        except Exception as exc:  # events that read but do not make a game
            skipped.append(Damage(game_id, f"its events do not fold: {why(exc)}"))
            continue
        if game and game_id not in dropped:  # the history leaves it out
            tally.add(game, seq)
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
    add_tally(conn, tally)
    return RebuildResult(games, events, rows, tuple(skipped))
