"""Game state: immutable values a replay can hold, compare, print and step back to."""

from __future__ import annotations

import attrs

from getbit_events.events import GameStarted
from getbit_events.setups import LIMBS, SHARK_CARDS, starting_hand

__all__ = ["GameState", "SharkState", "SwimmerState", "initial_state"]


@attrs.frozen(slots=False)
class SwimmerState:
    """One swimmer: limbs left, hand, cards on the table (play order) and discards."""

    name: str
    limbs: tuple[str, ...]
    hand: frozenset[int]
    table: tuple[int, ...] = ()
    discards: tuple[int, ...] = ()
    face_down: int = 0  # R16: how many table cards, oldest first, were turned face down
    devoured: bool = False


@attrs.frozen(slots=False)
class SharkState:
    """The Shark player's hand, played Shark cards and hunger tokens (R2, R11-R14)."""

    name: str
    hand: frozenset[str]
    table: tuple[str, ...] = ()
    hunger: int = 0


@attrs.frozen(slots=False)
class GameState:
    """Everything about a game at one step.

    ``swimmers`` is in starting-line order; ``line`` is the current line, front
    first, devoured swimmers left out. ``phase`` is one of ``setup``, ``choose``,
    ``reveal``, ``move``, ``bite``, ``refresh``, ``ended``.
    """

    setup: GameStarted
    swimmers: tuple[SwimmerState, ...]
    line: tuple[str, ...]
    shark: SharkState | None = None
    round: int = 0
    phase: str = "setup"
    devoured: tuple[str, ...] = ()
    chosen: tuple[str, ...] = ()
    revealed: tuple[tuple[str, int | None], ...] = ()
    shark_card: str | None = None
    winner: str | None = None
    ranking: tuple[str, ...] | None = None
    end_reason: str | None = None

    def swimmer(self, name: str) -> SwimmerState:
        """The state of the swimmer called ``name`` (as spelt in the set-up)."""
        return self.swimmers[self.setup.line.index(name)]

    @property
    def finished(self) -> bool:
        return self.phase == "ended"

    def limbs(self) -> dict[str, int]:
        """Limbs left per swimmer, 0 for the devoured, in starting-line order."""
        return {s.name: len(s.limbs) for s in self.swimmers}


def initial_state(setup: GameStarted) -> GameState:
    """The state before round 1: full hands (R1), four limbs each, the starting line."""
    hand = frozenset(starting_hand(setup.hand_size))
    swimmers = tuple([SwimmerState(name, LIMBS, hand) for name in setup.line])
    shark = None
    if setup.shark is not None:
        shark = SharkState(setup.shark, frozenset(SHARK_CARDS), (), setup.hunger)
    return GameState(setup, swimmers, setup.line, shark)
