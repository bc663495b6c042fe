"""GBN's full statement of a round's outcomes, one text for the writer and the validator.

``write_gbn`` writes every outcome of a round in this form, and the validator
compares a record's outcomes with it first: a record that states exactly what
the rules say needs no outcome read or checked one by one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from getbit_events.events import (
    CardsDiscarded,
    CardsTakenBack,
    HungerLost,
    SwimmerBitten,
    SwimmerDevoured,
)

__all__ = ["outcome_text"]


def outcome_text(steps: Iterable[tuple[Any, ...]], line: Sequence[str]) -> str:
    """The outcomes after a round's moves, as GBN states them in full (GBN.md).

    ``steps`` are the round's facts after the card moves, each its event class
    and then the event's fields after ``round`` (``board.Step``); ``line`` is the
    line after the round. E.g. ``bit Ted left-arm ; refresh Anne ; line Ted, Anne``:
    bites, devoured swimmers, misses and Exhaustion discards in the order they
    happened, then who took cards back without a bite (R7), then the line.
    """
    said: list[str] = []
    bitten: list[str] = []
    refresh: list[str] = []
    for step in steps:
        kind = step[0]
        if kind is SwimmerBitten:
            bitten.append(step[1])
            said.append(f"bit {step[1]} {step[2]}")
        elif kind is CardsTakenBack:
            if step[1] not in bitten:
                refresh.append(step[1])
        elif kind is SwimmerDevoured:
            said.append(f"out {step[1]}")
        elif kind is HungerLost:
            said.append("miss")
            said.append(f"hunger {step[1]}")
        elif kind is CardsDiscarded:
            said.append("discard " + ", ".join([f"{n} {v}" for n, v in step[1]]))
    if refresh:
        said.append("refresh " + ", ".join(refresh))
    said.append("line " + ", ".join(line))
    return " ; ".join(said)
