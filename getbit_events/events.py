"""Event classes: one small frozen attrs class per fact of a game, nothing else.

Every event has a stable wire tag (``TYPE``) and a schema version (``VERSION``),
the round it belongs to (0 for the set-up) and, where it came from a file, the
position of the record line it came from.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

__all__ = [
    "EVENT_TYPES",
    "CardChosen",
    "CardsDiscarded",
    "CardsRevealed",
    "CardsTakenBack",
    "Event",
    "GameEnded",
    "GameStarted",
    "HungerLost",
    "HungerStated",
    "LineStated",
    "MissStated",
    "OutcomeStated",
    "PlayStated",
    "SharkCardPlayed",
    "SharkCardsTakenBack",
    "SourcePos",
    "SwimmerBitten",
    "SwimmerDevoured",
    "SwimmerMoved",
]


@attrs.frozen
class SourcePos:
    """Where a fact was written: file, 1-based line and column."""

    file: str
    line: int
    column: int = 1

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@attrs.frozen
class GameStarted:
    """The whole set-up: variant, memory, starting line (front first) and who plays what."""

    TYPE: ClassVar[str] = "game-started"
    VERSION: ClassVar[int] = 1
    round: int
    variant: str
    memory: bool
    line: tuple[str, ...]
    hand_size: int
    automaton: str | None = None
    teams: tuple[tuple[str, tuple[str, ...]], ...] = ()
    shark: str | None = None
    hunger: int = 0
    tags: tuple[tuple[str, str], ...] = ()
    pos: SourcePos | None = None


@attrs.frozen
class CardChosen:
    """A swimmer (or the Shark) chose a card face down: who, not what."""

    TYPE: ClassVar[str] = "card-chosen"
    VERSION: ClassVar[int] = 1
    round: int
    who: str
    pos: SourcePos | None = None


@attrs.frozen
class CardsRevealed:
    """Every card the record says was revealed; ``None`` for a swimmer with no card (R15).

    The swimmers' cards come in line order; any play the record states besides
    (by a name not in the game, a swimmer devoured, a second play of one
    swimmer) follows as written: a fact kept, which the fold leaves aside.
    ``number`` is the number the record gives the round, where it is not the
    round's place (``round``); ``None`` otherwise.
    """

    TYPE: ClassVar[str] = "cards-revealed"
    VERSION: ClassVar[int] = 1
    round: int
    cards: tuple[tuple[str, int | None], ...]
    pos: SourcePos | None = None
    number: int | None = None


@attrs.frozen
class SharkCardPlayed:
    """The Shark's card, revealed with the swimmers' cards (R11)."""

    TYPE: ClassVar[str] = "shark-card-played"
    VERSION: ClassVar[int] = 1
    round: int
    shark: str
    card: str
    pos: SourcePos | None = None


@attrs.frozen
class PlayStated:
    """A play a record states with a card of the wrong kind: a swimmer's Shark card (or
    any word not a number), or the Shark's number (R3, R11); or a word played by a name
    not in the game, a swimmer devoured, or a second time.

    A fact of the record, kept as written after the round's reveal; the fold leaves it
    aside (the swimmer is revealed with no card, the Shark with none).
    """

    TYPE: ClassVar[str] = "play-stated"
    VERSION: ClassVar[int] = 1
    round: int
    who: str
    card: str
    pos: SourcePos | None = None


@attrs.frozen
class SwimmerMoved:
    """A swimmer swam to the front of the line: by its card (R4) or after a bite (R6)."""

    TYPE: ClassVar[str] = "swimmer-moved"
    VERSION: ClassVar[int] = 1
    round: int
    who: str
    why: str = "card"
    pos: SourcePos | None = None


@attrs.frozen
class SwimmerBitten:
    """A swimmer lost one limb: to the bite (R6) or to a Shark card (R11)."""

    TYPE: ClassVar[str] = "swimmer-bitten"
    VERSION: ClassVar[int] = 1
    round: int
    who: str
    limb: str
    pos: SourcePos | None = None


@attrs.frozen
class SwimmerDevoured:
    """A swimmer left the game: its last limb (R6) or the two-swimmer end (R8)."""

    TYPE: ClassVar[str] = "swimmer-devoured"
    VERSION: ClassVar[int] = 1
    round: int
    who: str
    why: str = "last-limb"
    pos: SourcePos | None = None


@attrs.frozen
class CardsTakenBack:
    """A swimmer took its played cards back into its hand (R6, R7; R9 reshuffle)."""

    TYPE: ClassVar[str] = "cards-taken-back"
    VERSION: ClassVar[int] = 1
    round: int
    who: str
    cards: tuple[int, ...]
    pos: SourcePos | None = None


@attrs.frozen
class SharkCardsTakenBack:
    """The Shark took its played Shark cards back (R12, R13)."""

    TYPE: ClassVar[str] = "shark-cards-taken-back"
    VERSION: ClassVar[int] = 1
    round: int
    cards: tuple[str, ...]
    pos: SourcePos | None = None


@attrs.frozen
class HungerLost:
    """The Shark missed and lost a hunger token (R12); ``left`` tokens remain."""

    TYPE: ClassVar[str] = "hunger-lost"
    VERSION: ClassVar[int] = 1
    round: int
    left: int
    pos: SourcePos | None = None


@attrs.frozen
class HungerStated:
    """The Shark's hunger tokens a record states in a round without a miss (R12).

    Written only where the record states another number than the Shark holds: a
    fact of the record, kept; the fold leaves it aside (only a miss changes the
    hunger).
    """

    TYPE: ClassVar[str] = "hunger-stated"
    VERSION: ClassVar[int] = 1
    round: int
    left: int
    pos: SourcePos | None = None


@attrs.frozen
class MissStated:
    """A miss a record states in a game without a Shark to miss (R11, R12: only the
    shark variant's Shark misses): a fact of the record, kept; the fold leaves it aside.

    (A ``hunger`` such a record states is kept as ``hunger-stated``.)
    """

    TYPE: ClassVar[str] = "miss-stated"
    VERSION: ClassVar[int] = 1
    round: int
    pos: SourcePos | None = None


@attrs.frozen
class LineStated:
    """The line after a round as a record states it, naming other swimmers than it holds.

    A line naming a swimmer devoured, one twice or leaving one out is a fact of the
    record, kept; the fold leaves it aside. (A stated line of the same swimmers in
    another order is followed: they swim into it, ``swimmer-moved`` of why ``line``.)
    """

    TYPE: ClassVar[str] = "line-stated"
    VERSION: ClassVar[int] = 1
    round: int
    line: tuple[str, ...]
    pos: SourcePos | None = None


@attrs.frozen
class OutcomeStated:
    """An outcome a record states that the game leaves to the rules, as written: the
    first ``bit``, ``refresh`` or ``discard`` of a round naming a name not in the game
    (or a card not a number), ``why`` ``unread``; or one stated a second time in a
    round, ``why`` ``twice``.

    A fact of the record, kept after the round's other facts; the fold leaves it
    aside (the rules' outcome of its kind stands). An ``unread`` one is written back
    in place of the rules' outcome of its kind, a ``twice`` one after the round's
    outcomes.
    """

    TYPE: ClassVar[str] = "outcome-stated"
    VERSION: ClassVar[int] = 1
    round: int
    kind: str
    why: str
    names: tuple[str, ...] = ()
    limb: str | None = None
    number: int | None = None
    cards: tuple[tuple[str, str], ...] = ()
    pos: SourcePos | None = None


@attrs.frozen
class CardsDiscarded:
    """Cards discarded for good: the tied swimmers' cards under the Shark's Exhaustion
    (R11), or the cards a record says were discarded in a game without a Shark."""

    TYPE: ClassVar[str] = "cards-discarded"
    VERSION: ClassVar[int] = 1
    round: int
    cards: tuple[tuple[str, int], ...]
    pos: SourcePos | None = None


@attrs.frozen
class GameEnded:
    """The game is over: the winner, the ranking best first, and which ruling ended it."""

    TYPE: ClassVar[str] = "game-ended"
    VERSION: ClassVar[int] = 1
    round: int
    winner: str
    ranking: tuple[str, ...]
    why: str
    pos: SourcePos | None = None


Event = (
    GameStarted
    | CardChosen
    | CardsRevealed
    | SharkCardPlayed
    | PlayStated
    | SwimmerMoved
    | SwimmerBitten
    | SwimmerDevoured
    | CardsTakenBack
    | SharkCardsTakenBack
    | HungerLost
    | CardsDiscarded
    | HungerStated
    | MissStated
    | LineStated
    | OutcomeStated
    | GameEnded
)

EVENT_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
        GameStarted,
        CardChosen,
        CardsRevealed,
        SharkCardPlayed,
        PlayStated,
        SwimmerMoved,
        SwimmerBitten,
        SwimmerDevoured,
        CardsTakenBack,
        SharkCardsTakenBack,
        HungerLost,
        CardsDiscarded,
        HungerStated,
        MissStated,
        LineStated,
        OutcomeStated,
        GameEnded,
    )
}
