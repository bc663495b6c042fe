"""The fold: ``apply(state, event)``, ``fold(events)`` and ``replay(events)``. It trusts its input.

Whether an event was legal is for the rules and the validator to say; the
reducer only records what the event says happened, so a trusted stream from the
store replays fast and a checked record is folded by the very same code.

There is one set of event handlers, the board's (``board.py``): the fold keeps
a private ``Board`` and hands out frozen ``GameState`` snapshots of it, which
share every swimmer that did not change with the snapshot before.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from getbit_events.board import Board
from getbit_events.events import Event, GameStarted, SwimmerDevoured, SwimmerMoved
from getbit_events.state import GameState

__all__ = ["Fold", "LineFold", "apply", "fold", "replay"]


def _start(event: Event) -> GameStarted:
    if not isinstance(event, GameStarted):
        raise ValueError(f"a game must start with game-started, not {event.TYPE}")
    return event


class Fold:
    """A fold in progress: apply events one by one, take a frozen snapshot any time."""

    __slots__ = ("board",)

    def __init__(self, start: GameState | GameStarted) -> None:
        """A fold from a frozen state, or from a set-up (before round 1)."""
        self.board = Board(start) if isinstance(start, GameStarted) else Board.of(start)

    def apply(self, event: Event) -> None:
        if isinstance(event, GameStarted):  # the fold starts again
            self.board = Board(event)
        else:
            self.board.fold(event)

    def extend(self, events: Iterable[Event]) -> None:
        for event in events:
            self.apply(event)

    def snapshot(self) -> GameState:
        return self.board.snapshot()

    @property
    def finished(self) -> bool:
        return self.board.phase == "ended"

    @property
    def line(self) -> list[str]:
        """The line now, front first (the fold's own list: read it, do not change it)."""
        return self.board.line


class LineFold:
    """The line alone, folded: the events that move it handed to the board's own
    handlers (``moved``, ``devour``), every other event passed by.

    No other handler of the board touches the line, so its ``line`` after each
    event is the ``Fold``'s (``tests/test_properties.py`` holds that on random games);
    a reader that needs only the line (the read model's survivors, front and
    back) is spared folding the hands, tables and limbs."""

    __slots__ = ("board",)

    def __init__(self, setup: GameStarted) -> None:
        self.board = Board(setup)

    def apply(self, event: Event) -> None:
        self.take(type(event), event)

    def take(self, kind: type[Any], fields: Any) -> None:
        """An event of class ``kind`` folded in, from the event or what it is made of
        (``steps.Fact``: its fields read by name)."""
        if kind is SwimmerMoved:
            self.board.moved(fields.who, fields.why)
        elif kind is SwimmerDevoured:
            self.board.devour(fields.who, fields.why)
        elif kind is GameStarted:  # the fold starts again
            self.board = Board(fields)

    @property
    def line(self) -> list[str]:
        """The line now, front first (the fold's own list: read it, do not change it)."""
        return self.board.line


def apply(state: GameState | None, event: Event) -> GameState:
    """The state after ``event``; a ``GameStarted`` starts from scratch."""
    if isinstance(event, GameStarted):
        return Board(event).snapshot()
    if state is None:
        raise ValueError(f"a game must start with game-started, not {event.TYPE}")
    board = Board.of(state)
    board.fold(event)
    return board.snapshot()


def replay(events: Iterable[Event]) -> Iterator[GameState]:
    """Yield the state after every event, in order; the first must be ``game-started``."""
    stream = iter(events)
    first = next(stream, None)
    if first is None:
        return
    board = Board(_start(first))
    yield board.snapshot()
    yield from board.snapshots(stream)


def fold(events: Iterable[Event], state: GameState | None = None) -> GameState:
    """The state after all ``events`` (optionally continuing from ``state``).

    Folds into one private board and takes a single snapshot at the end.
    """
    stream = iter(events)
    if state is None:
        first = next(stream, None)
        if first is None:
            raise ValueError("no events to fold")
        board = Board(_start(first))
    else:
        board = Board.of(state)
    for event in stream:
        if isinstance(event, GameStarted):  # the fold starts again
            board = Board(event)
        else:
            board.fold(event)
    return board.snapshot()
