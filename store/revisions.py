"""A game's history in SQL: revisions (a game superseded by another) and
retractions, appended to ``history``; which games statistics leave out for it;
the totals counted again when it changes; and the revision hint of an import.

Every function works inside the caller's transaction; the checks that refuse a
revision run in the write that appends it (``BEGIN IMMEDIATE``), so two
processes revising one game cannot both succeed.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from operator import itemgetter

from getbit_events.errors import InputError
from store import readmodel
from store.schema import DROPPED, GAME, TAG_DATE, live, tag_value
from store.stored import (
    GAME_NAMES,
    GENESIS,
    HistoryEntry,
    chain_head,
    chain_value,
    read_head,
    utc_now,
)
from store.totals import add_tally, left_out_counts, tally_rows

__all__ = [
    "IDENTIFYING",
    "append_retraction",
    "append_revision",
    "dropped",
    "entries",
    "left_out",
    "lookalikes",
    "recount",
]

#: The tags that name a game: a record matching a stored one on these (where both
#: give them; Event or Date at least) and on its starting line looks like a revision.
IDENTIFYING = ("Event", "Date", "Round", "Table")
_NAMING = ("Event", "Date")
_SECOND = itemgetter(1)
_COLUMNS = "seq, kind, game, target, reason, at"


def dropped(conn: sqlite3.Connection) -> dict[str, str]:
    """The games the history leaves out, with why: ``superseded`` or ``retracted``."""
    return dict(conn.execute(DROPPED).fetchall())


def left_out(conn: sqlite3.Connection) -> dict[str, int]:
    """How many games statistics leave out: ``superseded``, ``retracted``, and
    ``broken`` (live games whose set-up broke the rules: no events, no rows)."""
    return dict(left_out_counts(conn))


def entries(conn: sqlite3.Connection, game_id: str) -> list[HistoryEntry]:
    """The history facts that name the game (as the revision, the game superseded
    or the game retracted), in the order appended."""
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM history WHERE game = ? OR target = ? ORDER BY seq",
        (game_id, game_id),
    )
    return [HistoryEntry(*row) for row in rows]



def _superseded_by(conn: sqlite3.Connection, game_id: str) -> HistoryEntry | None:
    row = conn.execute(
        f"SELECT {_COLUMNS} FROM history WHERE kind = 'supersedes' AND target = ?", (game_id,)
    ).fetchone()
    return HistoryEntry(*row) if row else None


def _retracted(conn: sqlite3.Connection, game_id: str) -> HistoryEntry | None:
    row = conn.execute(
        f"SELECT {_COLUMNS} FROM history WHERE kind = 'retracts' AND game = ?", (game_id,)
    ).fetchone()
    return HistoryEntry(*row) if row else None


def _earlier(conn: sqlite3.Connection, game_id: str) -> list[str]:
    """The revisions ``game_id`` supersedes, and theirs, back to the first."""
    found: list[str] = []
    todo = [game_id]
    while todo:
        rows = conn.execute(
            "SELECT target FROM history WHERE kind = 'supersedes' AND game = ?", (todo.pop(),)
        )
        for (target,) in rows:
            if target not in found:
                found.append(target)
                todo.append(target)
    return found


def _when(entry: HistoryEntry) -> str:
    return f" on {entry.at}" + (f" ({entry.reason})" if entry.reason else "")


def append_revision(
    conn: sqlite3.Connection, game_id: str, target: str, reason: str | None
) -> HistoryEntry | None:
    """Append that ``game_id`` supersedes ``target`` (both stored), inside a write.

    InputError, and nothing appended, for a game that replaces itself, a cycle,
    a target retracted or already superseded by another, a revision itself
    superseded or retracted. None when ``game_id`` already supersedes ``target``.
    """
    if game_id == target:
        raise InputError(
            f"the record is game {target} itself, as stored: there is nothing to replace "
            "(is it the corrected record?)"
        )
    kinds = dict(conn.execute(
        f"SELECT id, {GAME} FROM games WHERE id IN (?, ?)", (game_id, target)
    ).fetchall())
    if kinds.get(game_id) != kinds.get(target):
        theirs, ours = (GAME_NAMES.get(str(kinds.get(g)), "?") for g in (target, game_id))
        raise InputError(
            f"game {target} is a game of {theirs}, the record one of {ours}: a record "
            "replaces a game of its own game only"
        )
    if game_id in _earlier(conn, target):
        raise InputError(
            f"game {game_id} cannot replace {target}: {target} is itself a revision of "
            f"{game_id} (a cycle of replacements)"
        )
    gone = _retracted(conn, target)
    if gone is not None:
        raise InputError(f"game {target} was retracted{_when(gone)}: it cannot be replaced")
    later = _superseded_by(conn, target)
    if later is not None:
        if later.game == game_id:
            return None
        raise InputError(
            f"game {target} is already superseded by {later.game}{_when(later)}; to correct "
            f"it again, replace the latest revision: --replaces {later.game}"
        )
    later = _superseded_by(conn, game_id)
    if later is not None:
        raise InputError(
            f"the record is game {game_id}, which is itself superseded by {later.game}"
            f"{_when(later)}: it cannot replace another game"
        )
    gone = _retracted(conn, game_id)
    if gone is not None:
        raise InputError(
            f"the record is game {game_id}, which was retracted{_when(gone)}: "
            "it cannot replace another game"
        )
    return _append(conn, "supersedes", game_id, target, reason)


def append_retraction(
    conn: sqlite3.Connection, game_id: str, reason: str | None
) -> HistoryEntry:
    """Append that ``game_id`` is retracted, inside a write. InputError, and nothing
    appended, when it is already retracted or superseded (retract the latest revision)."""
    gone = _retracted(conn, game_id)
    if gone is not None:
        raise InputError(f"game {game_id} was already retracted{_when(gone)}")
    later = _superseded_by(conn, game_id)
    if later is not None:
        raise InputError(
            f"game {game_id} is superseded by {later.game}{_when(later)}: it is not counted "
            f"already; to take the game back, retract its latest revision: getbit retract "
            f"{later.game}"
        )
    return _append(conn, "retracts", game_id, None, reason)


def _append(
    conn: sqlite3.Connection, kind: str, game: str, target: str | None, reason: str | None
) -> HistoryEntry:
    at = utc_now()
    found = conn.execute("SELECT value FROM meta WHERE key = 'history'").fetchone()
    head = read_head(found[0] if found else None)
    if head is None:  # none yet (or a damaged meta: getbit check says so)
        count, last = conn.execute(
            "SELECT COUNT(*), (SELECT chain FROM history ORDER BY seq DESC LIMIT 1) FROM history"
        ).fetchone()
        head = (count, last or GENESIS)
    row = (kind, game, target, reason, at)
    chain = chain_value(head[1], row)
    cursor = conn.execute(
        "INSERT INTO history (kind, game, target, reason, at, prev, chain) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (*row, head[1], chain),
    )
    conn.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('history', ?)",
        (chain_head(head[0] + 1, chain),),
    )
    recount(conn)
    return HistoryEntry(cursor.lastrowid or 0, kind, game, target, reason, at)


def recount(conn: sqlite3.Connection) -> None:
    """Count the totals tables again from the ``game_swimmers`` rows of the games
    the history leaves in, inside a write; the standings are marked stale (worked
    out again when next read). What ``rebuild`` gives, without reading events."""
    for table in readmodel.TOTALS:
        conn.execute(f"DELETE FROM {table}")
    add_tally(conn, tally_rows(conn), [])
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('standings', 'stale')")


def lookalikes(
    conn: sqlite3.Connection, game_id: str, tags: Mapping[str, str], swimmers: str
) -> tuple[str, ...]:
    """Live stored games (not ``game_id``) with ``game_id``'s starting line
    (``swimmers`` as stored) whose identifying tags match where both give them,
    Event or Date among them: what a corrected record looks like."""
    given = {name: tags[name] for name in IDENTIFYING if name in tags}
    if not any(name in given for name in _NAMING):
        return ()
    found = []
    among = (  # ``+``: the games of the line are found by its index, not by the game's
        f"FROM games WHERE swimmers = ? AND id != ? AND {live('id')} "
        f"AND +{GAME} = (SELECT {GAME} FROM games WHERE id = ?)"
    )
    date = given.get("Date")
    if date is None:  # the Event names it: SQLite picks out the games of the line with
        # that Event and no other value of the record's Round and Table (no other can
        # match), so that only they are read here; it still looks at every game of the
        # line (no index keeps Events)
        others = [name for name in IDENTIFYING if name in given and name not in _NAMING]
        alike = "".join(
            f" AND ({tag_value(name)} IS NULL OR {tag_value(name)} = ?)" for name in others
        )
        rows = conn.execute(
            f"SELECT rowid, id, tags {among} AND {tag_value('Event')} = ?{alike} ORDER BY rowid",
            (swimmers, game_id, game_id, given["Event"], *(given[name] for name in others)),
        )
    else:  # the games of the line with this Date or none (index m008_line_date)
        rows = conn.execute(
            f"SELECT rowid, id, tags {among} AND {TAG_DATE} = ? "
            f"UNION ALL SELECT rowid, id, tags {among} AND {TAG_DATE} IS NULL ORDER BY 1",
            (swimmers, game_id, game_id, date, swimmers, game_id, game_id),
        )
    for _, other_id, text in rows:
        other = json.loads(text)
        shared = [name for name in given if name in other]
        if any(name in shared for name in _NAMING) and all(
            other[name] == given[name] for name in shared
        ):
            found.append(other_id)
    return tuple(found)
