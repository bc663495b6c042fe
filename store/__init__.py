"""The game store: games kept in one SQLite file; the only package that speaks SQL.

Tables (``docs/store.md`` has the columns):

- ``games``: one row per stored game: its id, the hash of its content, where it
  was read, tags, variant, swimmers, status (``valid``, ``invalid``,
  ``unfinished``), winner, when it was imported;
- ``events``: the truth: every event of every game (``game_id``, ``seq``,
  ``type``, ``version``, ``round``, JSON ``payload``), append-only;
- ``violations``: what the validator found in invalid games, append-only;
- ``history``: revisions (a game superseded by a corrected record) and
  retractions, append-only (``revisions``);
- ``game_swimmers``: the read model of :mod:`store.readmodel` (one row
  per game per swimmer), rebuilt from ``events`` at will, with views over it;
- the totals read model (``readmodel.TOTALS``: per-player counts, spellings,
  pairs, games per status, standings), added to with each game.

The tables and their migrations are in ``schema``; the store that reads and
writes them is ``store`` (its reads in ``queries``); ``check`` is its fsck (``check_store``). Schema
changes are sqlite-utils migrations, applied when a store is opened.
Every game is written whole in one ``BEGIN IMMEDIATE`` transaction: its own,
or that of a ``batch`` of whole games (``getbit import`` writes batches), so a
crash leaves no half game and two writers wait for each other (``timeout``)
instead of failing. A game's id comes from the hash of its canonical event
stream (not of its file), so importing it again, from any file, stores nothing.
"""

from store.check import check_store
from store.migrations import MIGRATIONS
from store.store import BatchLost, GameStore
from store.stored import (
    DB_SUFFIXES,
    DEFAULT_DB,
    AddResult,
    CheckResult,
    Damage,
    HistoryEntry,
    RebuildResult,
    StoredGame,
    StoredViolation,
    default_path,
    game_hash,
)

__all__ = [
    "DB_SUFFIXES",
    "DEFAULT_DB",
    "MIGRATIONS",
    "AddResult",
    "BatchLost",
    "CheckResult",
    "Damage",
    "GameStore",
    "HistoryEntry",
    "RebuildResult",
    "StoredGame",
    "StoredViolation",
    "check_store",
    "default_path",
    "game_hash",
]
