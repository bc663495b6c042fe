"""A cursor over one game's events: step forward and back by event or by round,
jump anywhere, and read the state and a plain account there.

States are folded lazily and held once made (they are immutable values that
share their unchanged parts), so stepping back is a list look-up and never
slower than stepping forward.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from getbit_events.errors import InputError
from getbit_events.events import CardsRevealed, Event, GameStarted, SharkCardPlayed
from getbit_events.record import Violation
from getbit_events.reducer import Fold
from getbit_events.state import GameState, initial_state
from replay.account import describe
from replay.stepping import Stepping
from replay.view import EVERYTHING, View, Viewer, view

__all__ = ["Cursor", "Step"]

_CHUNK = 256  # states made ahead when the cursor first passes them


@attrs.frozen
class Step:
    """One event of the game, the state right after it, and its place."""

    index: int
    event: Event
    state: GameState


class Cursor(Stepping[Step]):
    """The replay of one game; ``position`` is the index of the event last applied
    (0 is the set-up). Violations and warnings, if any, are those the validator
    found; each is shown at the round it belongs to."""

    def __init__(
        self,
        events: Sequence[Event],
        violations: Sequence[Violation] = (),
        warnings: Sequence[Violation] = (),
        title: str = "",
    ) -> None:
        if not events or not isinstance(events[0], GameStarted):
            raise InputError("a replay needs a game that starts with its set-up (game-started)")
        self.events: tuple[Event, ...] = tuple(events)
        self.setup: GameStarted = events[0]
        self.violations = tuple(violations)
        self.warnings = tuple(warnings)
        self.title = title
        self._states: list[GameState] = [initial_state(self.setup)]
        self._fold = Fold(self.setup)  # at the last state made
        self.position = 0
        # first and last event index of each round, in order; round 0 is the set-up
        self.bounds: dict[int, tuple[int, int]] = {}
        for i, e in enumerate(self.events):
            first, _ = self.bounds.get(e.round, (i, i))
            self.bounds[e.round] = (first, i)
        self._ends = sorted(last for _, last in self.bounds.values())

    # -- reading -----------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.events)

    def state_at(self, index: int) -> GameState:
        """The state after event ``index``, folded once and held."""
        states = self._states
        if 0 <= index < len(states):
            return states[index]
        events = self.events
        if not 0 <= index < len(events):
            raise IndexError(f"no event {index}: this game has events 0 to {len(events) - 1}")
        # fold ahead a chunk at a time
        end = min(len(events) - 1, max(index, len(states) + _CHUNK))
        held = self._fold
        for k in range(len(states), end + 1):
            held.apply(events[k])
            states.append(held.snapshot())
        return states[index]

    @property
    def state(self) -> GameState:
        return self.state_at(self.position)

    @property
    def event(self) -> Event:
        return self.events[self.position]

    @property
    def round(self) -> int:
        return self.event.round

    @property
    def step(self) -> Step:
        return Step(self.position, self.event, self.state)

    @property
    def last_round(self) -> int:
        return max(self.bounds)

    def account(self, index: int | None = None, viewer: Viewer = EVERYTHING) -> str:
        """Plain words for event ``index`` (the current one by default)."""
        i = self.position if index is None else index
        before = self.state_at(i - 1) if i > 0 else None
        return describe(self.events[i], before, self.state_at(i), viewer)

    def view(self, viewer: Viewer = EVERYTHING, index: int | None = None) -> View:
        """The state at ``index`` (the current one by default) as ``viewer`` saw it."""
        i = self.position if index is None else index
        state = self.state_at(i)
        choices: dict[str, int | str | None] = {}
        if state.chosen:  # look ahead for the cards chosen but not yet revealed
            _, last = self.bounds[state.round]
            for e in self.events[i + 1 : last + 1]:
                if isinstance(e, CardsRevealed):
                    choices.update(e.cards)
                elif isinstance(e, SharkCardPlayed):
                    choices[e.shark] = e.card
        return view(state, viewer, choices)

    def round_events(self, rnd: int) -> range:
        """The indices of the events of round ``rnd`` (empty when there is none)."""
        if rnd not in self.bounds:
            return range(0)
        first, last = self.bounds[rnd]
        return range(first, last + 1)

    def violations_after_end(self) -> tuple[Violation, ...]:
        """Violations of rounds recorded after the game ended (R17)."""
        last = self.last_round
        return tuple(v for v in self.violations if (v.round or 0) > last)

    # -- moving (the rest is ``Stepping``'s) ----------------------------------------

    def here(self) -> Step:
        return self.step

    def goto_round(self, rnd: int) -> Step:
        """Jump to the end of round ``rnd`` (0: the set-up); InputError when there is none."""
        if rnd not in self.bounds:
            raise InputError(
                f"there is no round {rnd}: this game runs from round 1 to {self.last_round}"
            )
        return self.goto(self.bounds[rnd][1])
