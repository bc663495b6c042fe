"""Steps: what the rules say follows a reveal, each an event not yet made.

One class per kind of step, holding its event's fields after ``round`` by the
same names (no ``pos``): ``rules.settle`` gives them, ``Board.settle_in`` folds
them in through the handlers the events reach, and ``make_events`` makes them
the events of a round, written at a place. A checked record makes its events
only when asked, so a step is a small value, not an event.

Steps are NamedTuples (under mypyc a field is read as fast as a tuple item,
where a frozen attrs class's goes through ``getattr``). As tuples, two steps of
different kinds with equal fields compare equal: tell kinds apart by class.
Where the rules make steps every round (``rules._bite``, ``_missed``, the card
moves, R7's take-backs) they are made as ``tuple.__new__(Bitten, (who, limb))``:
calling the class runs the NamedTuple's generated ``__new__``, interpreted Python
even in the compiled build (about 2,400 instructions a step against some 400:
3% of validating GBN, issue 13; docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from getbit_events.events import (
    CardChosen,
    CardsDiscarded,
    CardsTakenBack,
    Event,
    GameEnded,
    HungerLost,
    HungerStated,
    LineStated,
    MissStated,
    SharkCardsTakenBack,
    SourcePos,
    SwimmerBitten,
    SwimmerDevoured,
    SwimmerMoved,
)

__all__ = [
    "EVENT_OF",
    "Bitten",
    "Devoured",
    "Discarded",
    "Ended",
    "Fact",
    "HungerLeft",
    "Moved",
    "SharkTookBack",
    "StatedHunger",
    "StatedLine",
    "StatedMiss",
    "Step",
    "TookBack",
    "fact_event",
    "make_events",
    "step_of",
]


class Moved(NamedTuple):
    """``who`` swims to the front: by its card (R4), after a bite (R6), or into a stated line."""

    who: str
    why: str


class Bitten(NamedTuple):
    """``who`` loses ``limb`` (R6, R11)."""

    who: str
    limb: str


class Devoured(NamedTuple):
    """``who`` is devoured (R6, R8, or as recorded)."""

    who: str
    why: str


class TookBack(NamedTuple):
    """``who`` takes ``cards`` back into its hand (R6, R7)."""

    who: str
    cards: tuple[int, ...]


class SharkTookBack(NamedTuple):
    """The Shark takes its played ``cards`` back (R13)."""

    cards: tuple[str, ...]


class HungerLeft(NamedTuple):
    """The Shark missed and has ``left`` hunger tokens (R12)."""

    left: int


class Discarded(NamedTuple):
    """Exhaustion: each (swimmer, card) leaves its table for the discards (R11)."""

    cards: tuple[tuple[str, int], ...]


class StatedHunger(NamedTuple):
    """A hunger a record states that the game cannot take: kept, changing nothing."""

    left: int


class StatedLine(NamedTuple):
    """A line a record states of other swimmers: kept, changing nothing."""

    line: tuple[str, ...]


class StatedMiss(NamedTuple):
    """A miss a record states in a game without a Shark: kept, changing nothing."""


class Ended(NamedTuple):
    """The game is over (R8, R10, R14)."""

    winner: str
    ranking: tuple[str, ...]
    why: str


Step = (
    Moved
    | Bitten
    | Devoured
    | TookBack
    | SharkTookBack
    | HungerLeft
    | Discarded
    | StatedHunger
    | StatedLine
    | StatedMiss
    | Ended
)

#: Each kind of step and the event it becomes: the event's fields are the
#: step's, by name and in order, between ``round`` and ``pos`` (tests/test_steps.py).
EVENT_OF: dict[type[Any], type[Event]] = {
    Moved: SwimmerMoved,
    Bitten: SwimmerBitten,
    Devoured: SwimmerDevoured,
    TookBack: CardsTakenBack,
    SharkTookBack: SharkCardsTakenBack,
    HungerLeft: HungerLost,
    Discarded: CardsDiscarded,
    StatedHunger: HungerStated,
    StatedLine: LineStated,
    StatedMiss: MissStated,
    Ended: GameEnded,
}

#: One event of a game's stream before it is made: its round, its class, what it is
#: made of, and where it is written. What it is made of is the smallest value at hand
#: that holds its fields: a ``CardChosen``'s is the chooser's name, an event a step
#: of the rules makes is that step (``EVENT_OF``), any other is the event itself
#: (which any fact may be).
#: The store writes a game from its facts without making its events
#: (``store.encoding``); ``fact_event`` makes the event.
Fact = tuple[int, type[Any], Any, SourcePos | None]


def fact_event(fact: Fact) -> Event:
    """The event ``fact`` stands for."""
    r, cls, value, pos = fact
    if type(value) is cls:  # the event itself
        made: Event = value
        return made
    if cls is CardChosen:
        return CardChosen(r, value, pos)
    return make_events([value], r, pos)[0]  # a step: its fields, between round and pos


_STEP_OF: dict[type[Any], type[Step]] = {event: step for step, event in EVENT_OF.items()}


def make_events(
    steps: Iterable[Step], r: int, pos: SourcePos | None, made: list[Event] | None = None
) -> list[Event]:
    """The events of ``steps`` in round ``r``, written at ``pos`` (added to ``made``)."""
    made = [] if made is None else made
    for step in steps:
        event: Callable[..., Event] = EVENT_OF[type(step)]  # its fields: the step's, in order
        # A step's fields passed one by one: ``*step`` first copies a NamedTuple (a
        # tuple subclass) item by item into a list (docs/architecture.md).
        fields: tuple[Any, ...] = step
        n = len(fields)
        if n == 2:
            made.append(event(r, fields[0], fields[1], pos))
        elif n == 1:
            made.append(event(r, fields[0], pos))
        else:
            made.append(event(r, *fields, pos))
    return made


def step_of(event: Event) -> Step | None:
    """The step ``event`` is made from, or None for an event no step makes (a play, a reveal)."""
    kind = _STEP_OF.get(type(event))
    if kind is None:
        return None
    return kind(**{name: getattr(event, name) for name in kind._fields})
