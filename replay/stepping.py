"""Stepping through one game's events by event and by round: what the cursors of
Get Bit! (``cursor.Cursor``) and of Come on! Bite me! (``bite.BiteCursor``) share,
and what the keys of ``--step`` (``interactive.Keys``) call."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import Any, Generic, TypeVar

from getbit_events.record import Violation

__all__ = ["Stepping"]

_Here = TypeVar("_Here")


class Stepping(Generic[_Here]):
    """``position`` is the index of the event last applied (0 is the set-up); a move
    is clamped to the game and returns what the cursor says of where it landed
    (``here``). The cursor sets ``events``, ``violations`` and ``_ends``, the last
    event index of each round (a turn, in Come on! Bite me!), in order."""

    events: Sequence[Any]
    violations: tuple[Violation, ...]
    position: int
    _ends: list[int]

    def here(self) -> _Here:
        """What a move returns: the cursor's own account of where it is."""
        raise NotImplementedError

    @property
    def at_start(self) -> bool:
        return self.position == 0

    @property
    def at_end(self) -> bool:
        return self.position == len(self.events) - 1

    def goto(self, index: int) -> _Here:
        """Jump to event ``index``, clamped to the game."""
        self.position = max(0, min(index, len(self.events) - 1))
        return self.here()

    def forward(self, n: int = 1) -> _Here:
        return self.goto(self.position + n)

    def back(self, n: int = 1) -> _Here:
        return self.goto(self.position - n)

    def first(self) -> _Here:
        return self.goto(0)

    def last(self) -> _Here:
        return self.goto(len(self.events) - 1)

    def next_round(self) -> _Here:
        """To the end of the current round, or of the next one if already there."""
        k = bisect_right(self._ends, self.position)
        return self.goto(self._ends[k] if k < len(self._ends) else self.position)

    def prev_round(self) -> _Here:
        """To the end of the round before (the set-up before round 1)."""
        k = bisect_left(self._ends, self.position)
        return self.goto(self._ends[k - 1] if k > 0 else 0)

    def violations_in(self, rnd: int) -> tuple[Violation, ...]:
        """What the validator found in round ``rnd`` (0: the set-up and the tags)."""
        return tuple(v for v in self.violations if (v.round or 0) == rnd)
