"""The read-model columns the reports read, and the order a row tuple holds them in.

Reports work on plain tuples (``ROW``) rather than dicts: a store that can hand
out rows as tuples of these columns saves most of the time of a report.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from operator import itemgetter
from typing import Any

from store.readmodel import SHARK_COUNTS, SWIMMER_COUNTS

__all__ = ["ROW", "SHARK_SUMS", "SWIMMER_SUMS", "as_tuples"]

#: Read-model counts a player's swimmer rows add up.
SWIMMER_SUMS: tuple[str, ...] = SWIMMER_COUNTS
#: Read-model counts a player's Shark rows add up.
SHARK_SUMS: tuple[str, ...] = (*SHARK_COUNTS, "hunger_left")
#: The columns of a row tuple, in order.
ROW: tuple[str, ...] = (
    "game_id",
    "status",
    "variant",
    "swimmers",
    "date",
    "tags",
    "role",
    "player_key",
    "name",
    "start_place",
    "rank",
    "won",
    *SWIMMER_SUMS,
    *SHARK_SUMS,
)
(GAME_ID, STATUS, VARIANT, SWIMMERS, DATE, TAGS, ROLE, PLAYER_KEY, NAME, START_PLACE, RANK,
 WON) = range(12)
SWIMMER_START, SWIMMER_END = 12, 12 + len(SWIMMER_SUMS)
SHARK_START, SHARK_END = SWIMMER_END, SWIMMER_END + len(SHARK_SUMS)

Row = tuple[Any, ...]


def as_tuples(rows: Iterable[Mapping[str, Any]]) -> Iterator[Row]:
    """Read-model rows (dicts, as ``readmodel.rows`` makes them) as ``ROW`` tuples."""
    pick = itemgetter(*ROW)
    for row in rows:
        yield pick(row)
