"""Where report rows come from: a store's read model, or record files validated on the spot."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol, cast

from getbit_events.events import Event, GameStarted
from getbit_events.validate import GameReport
from reports.columns import ROW, Row, as_tuples
from store.readmodel import game_status, rows

__all__ = [
    "EventSource",
    "RowSource",
    "TupleRowSource",
    "game_id_of",
    "row_tuples",
    "rows_from_reports",
]


class RowSource(Protocol):
    """What the reports need of a store: its read-model rows (``store.readmodel``)."""

    def swimmer_rows(self, **filters: Any) -> Iterable[Mapping[str, Any]]: ...


class TupleRowSource(Protocol):
    """A store that can also hand out read-model rows as plain tuples of ``columns``
    (every row, any order): several times faster for a report than dicts."""

    def swimmer_tuples(self, columns: Sequence[str]) -> Iterable[tuple[Any, ...]]: ...


def row_tuples(store: RowSource | TupleRowSource) -> Iterable[Row]:
    """Every read-model row of ``store`` as a ``reports.columns.ROW`` tuple, the
    fastest way the store offers."""
    if hasattr(store, "swimmer_tuples"):
        return cast(TupleRowSource, store).swimmer_tuples(ROW)
    return as_tuples(store.swimmer_rows())


class EventSource(Protocol):
    """What ``getbit report GAME`` needs of a store: one game's events."""

    def events(self, game_id: str) -> Sequence[Event]: ...


def game_id_of(report: GameReport) -> str:
    """The id a game read from a file goes by: ``file.gbn#2`` for its second game."""
    return f"{report.source}#{report.game}"


def rows_from_reports(
    reports: Iterable[GameReport], unreadable: list[str]
) -> Iterator[Mapping[str, Any]]:
    """Read-model rows of validated games, built as the store would build them.

    Tags are the set-up's (the ones the rules do not read, as the store keeps
    them). A game without events (a syntax error or a broken set-up spoilt it) has no
    rows; its id is appended to ``unreadable`` so a report can count it as invalid.
    """
    for report in reports:
        game_id = game_id_of(report)
        if not report.events:
            unreadable.append(game_id)
            continue
        setup = report.events[0]
        tags = dict(setup.tags) if isinstance(setup, GameStarted) else {}
        yield from rows(game_id, report.events, game_status(report.valid, report.finished), tags)
