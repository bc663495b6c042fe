"""Game state: immutable values a replay can hold, compare, print and step back to."""

from __future__ import annotations

from typing import Any, TypeVar

import attrs

from getbit_events.events import GameStarted
from getbit_events.setups import LIMBS, SHARK_CARDS, starting_hand

__all__ = [
    "GAME_FIELDS",
    "SHARK_FIELDS",
    "SWIMMER_FIELDS",
    "GameState",
    "SharkState",
    "SwimmerState",
    "initial_state",
    "made",
]


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


# Speed trick (docs/architecture.md, "Speed tricks in the fold"): every state value
# is made one way, without running its class's ``__init__``: a copy of its class's
# dict of fields (``SWIMMER_FIELDS``...: taken from a value the constructor made, so
# a copy shares its keys as the constructor's own dicts do, and is as small) is given
# the value's fields, then to an empty object of a plain class (``type()`` keeps it
# one under mypyc too), whose class is then set to the value's, of the same layout.
# A replay makes one per event (``board.Board.snapshot``); tests/test_properties.py
# holds every value so made equal, field for field and class for class, to the
# constructor's.
_T = TypeVar("_T")
_Blank = type("_Blank", (), {})

SWIMMER_FIELDS: dict[str, Any] = SwimmerState("", (), frozenset()).__dict__
SHARK_FIELDS: dict[str, Any] = SharkState("", frozenset()).__dict__
GAME_FIELDS: dict[str, Any] = GameState(GameStarted(0, "standard", False, (), 0), (), ()).__dict__


def made(cls: type[_T], fields: dict[str, Any]) -> _T:
    """The frozen ``cls`` value holding ``fields`` (the dict itself: a copy of the
    class's ``*_FIELDS`` with each field set)."""
    value = _Blank()
    value.__dict__ = fields
    value.__class__ = cls
    return value  # type: ignore[no-any-return]


def initial_state(setup: GameStarted) -> GameState:
    """The state before round 1: full hands (R1), four limbs each, the starting line."""
    hand = frozenset(starting_hand(setup.hand_size))
    swimmers = []
    for name in setup.line:
        fields = SWIMMER_FIELDS.copy()
        fields.update(name=name, limbs=LIMBS, hand=hand, table=(), discards=(), face_down=0,
                      devoured=False)
        swimmers.append(made(SwimmerState, fields))
    shark = None
    if setup.shark is not None:
        fields = SHARK_FIELDS.copy()
        fields.update(name=setup.shark, hand=frozenset(SHARK_CARDS), table=(), hunger=setup.hunger)
        shark = made(SharkState, fields)
    fields = GAME_FIELDS.copy()
    fields.update(setup=setup, swimmers=tuple(swimmers), line=setup.line, shark=shark, round=0,
                  phase="setup", devoured=(), chosen=(), revealed=(), shark_card=None,
                  winner=None, ranking=None, end_reason=None)
    return made(GameState, fields)
