"""What ``getbit check`` holds of a store as a whole, beside each game (``check``): the
triggers that keep its tables append-only, the totals and standings against the
read-model rows, the history of revisions and retractions, and rows whose game is
not stored. Each check reads only and gives the damage it finds."""

from __future__ import annotations

import functools
import itertools
import sqlite3
from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Any

import sqlite_utils

from store import readmodel
from store.migrations import MIGRATIONS
from store.rows import why
from store.schema import (
    GUARDS,
    HISTORY_COLUMNS,
    HISTORY_GUARDS,
    UNNUMBERED_GUARDS,
    live,
    rewrite_guard,
    table_columns,
)
from store.stored import GENESIS, Damage, chain_value, read_head
from store.totals import OrderedResults

__all__ = ["guards", "history", "strays", "totals"]


def guards(
    conn: sqlite3.Connection, names: Sequence[str] = GUARDS, what: str = "the append-only tables"
) -> list[Damage]:
    """Damage when a trigger of ``names`` that guards ``what`` was dropped, or made
    again otherwise than a store makes it (one that guards nothing: ``WHEN 0``)."""
    damage: list[Damage] = []
    triggers = "SELECT name, sql FROM sqlite_master WHERE type = 'trigger'"
    found = dict(conn.execute(triggers))
    missing = [name for name in names if name not in found]
    if missing:
        damage.append(
            Damage(None, f"trigger{'s' * (len(missing) != 1)} {', '.join(missing)} "
                   f"dropped: {what} can be rewritten")
        )
    expected = _guard_sql()
    changed = [
        name for name in names
        if name in found and name in expected and _spaced(found[name]) not in expected[name]
    ]
    if changed:
        damage.append(
            Damage(None, f"trigger{'s' * (len(changed) != 1)} {', '.join(changed)} "
                   f"changed from what getbit made: {what} may be rewritten")
        )
    return damage


def totals(conn: sqlite3.Connection, history: bool) -> list[Damage]:
    """The totals tables against a tally of the ``game_swimmers`` rows (which each
    game's own check holds to its events) of the games the history leaves in (all of
    them in a store without a history), and the standings (``_standings``)."""
    where = f"WHERE {live('r.game_id')} " if history else ""
    cursor = conn.execute(
        f"SELECT g.rowid, r.* FROM {readmodel.TABLE} r JOIN games g ON g.id = r.game_id "
        f"{where}ORDER BY g.rowid, r.rowid"
    )
    tally = readmodel.Tally()
    ordered = OrderedResults(conn)  # the valid games' results, not held here
    try:
        for seq, group in itertools.groupby(cursor, key=itemgetter(0)):
            tally.add([row[1:] for row in group], seq)
            ordered.take(tally)
        ordered.take(tally, 0)
    except (TypeError, ValueError) as exc:  # a value no game's own check reads
        cursor.close()  # its rows are not all read: SQLite drops no table under it
        ordered.close()
        return [
            Damage(None, f"the read-model rows ({readmodel.TABLE}) hold a value getbit "
                   f"never writes there, so the totals cannot be checked: {why(exc)} "
                   "(getbit rebuild makes them again)")
        ]
    damage: list[Damage] = []
    counted: dict[str, Mapping[tuple[Any, ...], Sequence[Any]]] = {
        "player_totals": tally.players,
        "player_names": tally.names,
        "pair_totals": tally.pairs,
        "game_totals": tally.games,
    }
    for table, counts in counted.items():
        width = len(readmodel.TOTALS[table][1])
        found = {
            tuple(row[:width]): list(row[width:]) for row in conn.execute(f"SELECT * FROM {table}")
        }
        if found != {key: list(value) for key, value in counts.items()}:
            damage.append(
                Damage(None, f"the totals in {table} do not match the read-model rows "
                       "(getbit rebuild makes them again)")
            )
    if history:
        damage.extend(_standings(conn, ordered))
    ordered.close()
    return damage


def _standings(conn: sqlite3.Connection, results: OrderedResults) -> list[Damage]:
    """The standings (ratings and streaks) against the valid games' ``results`` (the
    live games' tally's) folded again in date order, as ``totals`` folds them, unless
    marked stale (they are then worked out again when next read, from the read
    model checked above)."""
    state = conn.execute("SELECT value FROM meta WHERE key = 'standings'").fetchone()
    if state is not None and state[0] == "stale":
        return []
    standings = readmodel.Standings()
    standings.add_all(results)
    found = {row[0]: list(row[1:]) for row in conn.execute("SELECT * FROM standings")}
    if found != standings.players:
        return [
            Damage(None, "the standings (ratings and streaks) do not match the games "
                   "(getbit rebuild makes them again)")
        ]
    return []


def history(conn: sqlite3.Connection) -> list[Damage]:
    """Every revision and retraction names stored games; no game is superseded or
    retracted twice; no cycle of revisions; the facts chained and counted in their
    head; the append-only triggers are there (a store with a history)."""
    damage: list[Damage] = []
    games = {gid for (gid,) in conn.execute("SELECT id FROM games")}
    names = ", ".join(HISTORY_COLUMNS)
    rows = conn.execute(f"SELECT seq, prev, chain, {names} FROM history ORDER BY seq")
    supersedes: dict[str, list[str]] = {}
    last, count = GENESIS, 0
    for seq, prev, chain, *row in rows.fetchall():
        kind, game, target = row[0], row[1], row[2]
        if prev != last:
            damage.append(Damage(None, f"a history fact stored before fact {seq} is missing"))
        if chain != chain_value(prev, row):
            damage.append(Damage(None, f"history fact {seq} was changed (it does not match "
                                 "its chain value)"))
        last, count = chain, count + 1
        for named in (game, target):
            if named is not None and named not in games:
                damage.append(
                    Damage(str(named), f"history fact {seq} ({kind}) names it, but it "
                           "is not stored")
                )
        if kind == "supersedes":
            supersedes.setdefault(str(game), []).append(str(target))
    found_head = conn.execute("SELECT value FROM meta WHERE key = 'history'").fetchone()
    head = read_head(found_head[0] if found_head else None)
    if (head or (0, GENESIS)) != (count, last):
        damage.append(Damage(None, f"the history's head does not match its facts "
                             f"(a fact removed or added?): {count} there"))
    for column, kind, what in (
        ("target", "supersedes", "it is superseded more than once"),
        ("game", "retracts", "it is retracted more than once"),
    ):
        twice = conn.execute(
            f"SELECT {column} FROM history WHERE kind = ? GROUP BY {column} "
            "HAVING COUNT(*) > 1",
            (kind,),
        )
        damage.extend(Damage(str(gid), what) for (gid,) in twice)
    for start in sorted(supersedes):
        if _cycle(supersedes, start):
            damage.append(Damage(start, "its revisions make a cycle (it supersedes "
                                 "itself through others)"))
    damage.extend(guards(conn, HISTORY_GUARDS, "the history"))
    return damage


def strays(conn: sqlite3.Connection, compact: bool, sources: bool) -> list[Damage]:
    """Rows whose game is not stored, or that lie under another game's number where
    they are not found (``m011_by_number``): events (``compact``: kept by
    ``eventlog``, not in a table of a store from before), violations, read-model
    rows, record texts (``sources``: the store keeps them)."""
    damage: list[Damage] = []
    events = "event_games" if compact else "events"
    # (table, what a row without its game is, what a row under another game's
    # number is: None for a table not found by number, ``m011_by_number``)
    numbered = sources and "game" in table_columns(conn, "sources")
    for table, what, elsewhere in (
        (events, "its events are stored but its game is not (the game was removed)",
         "its events are stored" if compact else None),
        ("violations", "its violations are stored but its game is not", None),
        (readmodel.TABLE, "its read-model rows are there but its game is not", None),
        *((("sources", "its record text is stored but its game is not",
            "its record text is stored" if numbered else None),) if sources else ()),
    ):
        cursor = conn.execute(
            f"SELECT DISTINCT game_id FROM {table} "
            "WHERE game_id NOT IN (SELECT id FROM games) ORDER BY game_id"
        )
        damage.extend(Damage(str(game_id), what) for (game_id,) in cursor)
        if elsewhere is not None:  # found by number and id: under another's number, unseen
            cursor = conn.execute(
                f"SELECT DISTINCT t.game_id FROM {table} t WHERE t.game_id IN "
                "(SELECT id FROM games) AND NOT EXISTS (SELECT 1 FROM games g WHERE "
                "g.rowid = t.game AND g.id = t.game_id) ORDER BY t.game_id"
            )
            damage.extend(
                Damage(str(game_id), f"{elsewhere} under another game's number, where it "
                       "is not found") for (game_id,) in cursor
            )
    if compact:
        cursor = conn.execute(
            "SELECT COUNT(*) FROM event_runs WHERE game NOT IN (SELECT game FROM event_games)"
        )
        (count,) = cursor.fetchone()
        if count:
            damage.append(Damage(None, f"{count} runs of events (event_runs) are stored "
                                 "without their game"))
    return damage


#: Guards as an earlier getbit made them, which a store not migrated since holds (``getbit
#: check`` migrates nothing): ``m003_defences`` to ``m008`` made ``games_no_replace``
#: with a term of the hash, which ``m009_no_hash_index`` took out.
_FORMER_GUARDS = {
    "games_no_replace": (
        "CREATE TRIGGER games_no_replace BEFORE INSERT ON games WHEN EXISTS (SELECT 1 FROM "
        "games WHERE id = NEW.id OR hash = NEW.hash OR rowid = NEW.rowid) BEGIN SELECT "
        "RAISE(ABORT, 'games are append-only: a stored row cannot be replaced'); END"
    ),
}


@functools.cache
def _guard_sql() -> dict[str, set[str]]:
    """What each trigger's SQL may be (``_spaced``): as a new store has it (the
    migrations make every migrated store's the same), or as an earlier getbit made it
    (``_FORMER_GUARDS``)."""
    db = sqlite_utils.Database(memory=True)
    MIGRATIONS.apply(db)
    triggers = db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
    found = {name: {_spaced(sql)} for name, sql in triggers.fetchall()}
    for name, sql in _FORMER_GUARDS.items():
        found[name].add(sql)
    for table, keys in UNNUMBERED_GUARDS.items():  # before m011_by_number
        name, sql = rewrite_guard(table, keys)
        found[name].add(_spaced(sql))
    return found


def _spaced(sql: Any) -> str:
    return " ".join(str(sql).split())


def _cycle(supersedes: Mapping[str, Sequence[str]], start: str) -> bool:
    """Whether following what ``start`` supersedes, and what those supersede, comes
    back to ``start``."""
    seen: set[str] = set()
    todo = list(supersedes.get(start, ()))
    while todo:
        game = todo.pop()
        if game == start:
            return True
        if game not in seen:
            seen.add(game)
            todo.extend(supersedes.get(game, ()))
    return False
